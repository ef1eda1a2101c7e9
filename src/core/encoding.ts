/**
 * The one text decoding rule for notes: UTF-8 or nothing (docs/write-safety.md). A note is decoded
 * with a fatal decoder, so a Latin-1 or UTF-16 file is refused with the offset of its first bad byte
 * instead of being turned into U+FFFD and written back (docs/write-safety.md, "UTF-8 or nothing").
 * A UTF-8 byte order mark is kept as the character U+FEFF, so the note is written back byte for
 * byte.
 */
import { EncodingError } from "./errors";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes a note's bytes as UTF-8.
 * @param bytes the file's content
 * @param path vault path of the note, for the message
 * @returns the text, with a leading U+FEFF when the file starts with a UTF-8 byte order mark
 * @throws {@link EncodingError} naming `path` and the byte offset of the first byte that is not
 *   UTF-8 (or saying the file is UTF-16, when it starts with a UTF-16 byte order mark)
 */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  ) {
    throw new EncodingError(
      `${path} is UTF-16 (it starts with a UTF-16 byte order mark), not UTF-8; convert it to UTF-8 to use it`,
      path,
    );
  }
  try {
    return fatal.decode(bytes);
  } catch {
    const offset = firstInvalidOffset(bytes);
    const byte = bytes[offset] ?? 0;
    throw new EncodingError(
      `${path} is not valid UTF-8 (first bad byte 0x${byte.toString(16).padStart(2, "0")} at offset ${offset}); convert it to UTF-8 to use it`,
      path,
    );
  }
}

/**
 * {@link decodeUtf8} for a read that an edit will follow: a refusal says, in addition, that
 * nothing was written (a read-only reader, such as search or health, says only what the note is).
 * @throws {@link EncodingError} as {@link decodeUtf8}, its message ending "; nothing was written"
 */
export function decodeUtf8ForEdit(bytes: Uint8Array, path: string): string {
  try {
    return decodeUtf8(bytes, path);
  } catch (err) {
    if (err instanceof EncodingError)
      throw new EncodingError(`${err.message}; nothing was written`, path);
    throw err;
  }
}

/**
 * Offset of the first byte where `bytes` stops being UTF-8: the length of the longest prefix a
 * streaming decoder accepts (a prefix that is valid stays valid when shortened, so a binary search
 * finds it). Only called on the error path.
 */
function firstInvalidOffset(bytes: Uint8Array): number {
  let lo = 0; // a prefix of lo bytes decodes
  let hi = bytes.length; // a prefix of hi bytes does not (as a whole file)
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (decodesAsPrefix(bytes.subarray(0, mid))) lo = mid;
    else hi = mid;
  }
  // lo bytes decode as the start of a stream; if the sequence starting at the last lead byte is
  // incomplete at the end of the file, the bad byte is that lead byte.
  if (decodesAsPrefix(bytes.subarray(0, lo)) && !decodesWhole(bytes.subarray(0, lo))) {
    let start = lo - 1;
    while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
    return start;
  }
  return lo;
}

function decodesAsPrefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function decodesWhole(bytes: Uint8Array): boolean {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
