/** The `fields` argument of the tracker tools: inline fields `key:: value` to write on the item. */
import { z } from "zod";

/** A field name: letters, digits, `_` and `-`, starting with a letter. */
const fieldKey = z
  .string()
  .regex(/^[A-Za-z][\w-]{0,39}$/, "field names are letters, digits, _ and -");

/** `{ key: value }`; each value is checked by its key's rule before anything is written. */
export const fieldsArg = z
  .record(fieldKey, z.string().min(1))
  .optional()
  .describe("more [key:: value] fields; dates YYYY-MM-DD");
