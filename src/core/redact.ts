/**
 * Secrets taken out of transcript text before anything is written (docs/agents.md, "What never
 * is"; docs/decisions.md, "Transcript secrets: our own pattern table"). Each pattern names the rule
 * of gitleaks' default configuration (`config/gitleaks.toml` of gitleaks/gitleaks) or the
 * secretlint rule it follows; several are looser than their source (a shorter minimum length, no
 * checksum), which redacts a little more rather than let a key through. Passwords in URLs go
 * through the project's own {@link redactUrl}.
 */
import { redactUrl } from "./url";

/** One secret pattern. */
export interface SecretPattern {
  /** Shown in the replacement: `[redacted: aws-access-key]`. */
  name: string;
  /**
   * Global regular expression; a capture group named `keep` (or `keep2`, `keep3`… in further
   * alternatives: a name is used once per expression) is kept before the replacement.
   */
  pattern: RegExp;
  /** Where the pattern comes from. */
  source: string;
}

/**
 * `word` (a regular-expression fragment) matched in any case, for an expression without the `i`
 * flag (`$VAR` is capitals only): each lower-case letter outside a character class becomes `[xX]`;
 * a class is left as written, so it names both cases itself (`[a-zA-Z]`).
 */
function anyCase(word: string): string {
  return word.replace(/\[(?:\\.|[^\]\\])*\]|[a-z]/g, (c) =>
    c.length > 1 ? c : `[${c}${c.toUpperCase()}]`,
  );
}

/**
 * The words that make a name a secret's, one list for the `secret-assignment` pattern and
 * {@link isSecretName}. An ASCII entry is a regular-expression fragment matched in any case at the
 * end of a name (`api_key`, `client_secret`, `private-key`, `db_password`, `pwd`, `GH_TOKEN`); an
 * entry in another script is a word matched as written, inside a longer name too (`数据库密码`):
 * Chinese and Japanese put no space or `_` between words. Chinese (simplified and traditional),
 * Japanese and Korean names take a value of ASCII characters only, at least
 * {@link CJK_VALUE_MIN} of them (docs/decisions.md, "Secrets named in Chinese, Japanese and
 * Korean").
 */
export const SECRET_NAME_LIST: readonly string[] = [
  "(?:api|secret|private|access|signing|encryption|client|hmac|master|ssh|deploy|account|auth)[ _-]?key",
  "passphrase",
  "secret",
  "token",
  "passw(?:or)?d",
  "pwd",
  "credential",
  ..."密码 密碼 口令 密钥 密鑰 秘钥 秘鑰 私钥 私鑰 令牌 凭据 憑據 パスワード パスコード 暗証番号 トークン APIキー アクセスキー シークレットキー シークレット 秘密鍵 비밀번호 패스워드 암호 토큰".split(
    " ",
  ),
];

/** The {@link SECRET_NAME_LIST} entries written in ASCII: regular-expression fragments. */
const LATIN_NAMES = SECRET_NAME_LIST.filter((n) => /^[\x20-\x7E]+$/.test(n));

/** The {@link SECRET_NAME_LIST} entries in another script: words, as an alternation. */
const CJK_NAMES = `(?:${SECRET_NAME_LIST.filter((n) => !LATIN_NAMES.includes(n)).join("|")})`;

/**
 * Names of algorithms and encodings, said of secrets but never one (`密码是 bcrypt 哈希存储的`,
 * `密钥：AES-256-GCM`, "hash the password with sha256"): a regular-expression fragment, matched in
 * any case as a whole value. Written with `[0-9]`, not `\d`, for {@link anyCase}.
 */
const ALGORITHM =
  "(?:(?:sha3?-?(?:1|224|256|384|512)?|md5|bcrypt|scrypt|argon2(?:id|i|d)?|pbkdf2(?:-sha-?[0-9]+)?" +
  "|aes(?:-?[0-9]+)?(?:-(?:gcm|cbc|ctr|ecb|siv))?|rsa(?:-?[0-9]+)?|ed25519|x25519|ecdsa(?:-p-?[0-9]+)?" +
  "|p-?(?:256|384|521)|hmac(?:-sha-?[0-9]+)?|[hreHRE][sS](?:256|384|512)|jwt|oauth-?[0-9](?:\\.[0-9])?" +
  "|rfc-?[0-9]+|base(?:32|58|64|85)|ascii(?:85)?|hex|utf-?(?:8|16|32)(?:mb4)?|latin-?1|iso-?8859-?[0-9]+" +
  "|x509|pkcs#?[0-9]+|x?chacha20(?:-poly1305)?|secp[0-9]+[kr][0-9]|sm[2-4](?:-[0-9]+)?|uuid(?:v[0-9])?" +
  "|gpt-?[0-9][a-z0-9.]*|[0-9]password|k8s|2fa|mfa|totp|v[0-9]+" +
  // A size, a length or a duration: 2048-bit, 256 bits, 86400s, 8-16, 8~16.
  "|[0-9]+(?:[-~][0-9]+(?:-?(?:bits?|bytes?|chars?|characters?))?" +
  "|-?(?:bits?|bytes?|chars?|characters?|ms|[smhd]|kb|mb|gb))" +
  ")(?:sum|url|-[a-zA-Z][a-zA-Z0-9]*)*)";

/** An absolute file path (`/home/user`): a working directory's value (`pwd: /home/user`), not a secret's. */
const FILE_PATH = "/[A-Za-z0-9._-]+(?:/[A-Za-z0-9._-]*)*";

/** The shortest value a secret named in Chinese, Japanese or Korean has: `密码：abc` is not one. */
export const CJK_VALUE_MIN = 4;

/** Between a name and its value: `:`, `::` (a Dataview field), `=`, or a full-width `：` or `＝`. */
const SEPARATOR = "(?:::|[:=：＝])";

/**
 * Between a name in Chinese, Japanese or Korean and its value: a {@link SEPARATOR}, the word for
 * "is" (`密码是 hunter2`, `密码为 …`, `パスワードは …`, `비밀번호는 …`), or a word of a new value, as a
 * password is rotated (`密码改为 …`, `改成了`, `更新为`, `设置为`, `设为`, `换成`, `重置为`), a colon
 * after it allowed.
 */
const CJK_SEPARATOR = `(?:${SEPARATOR}|(?:改为|改成了?|更新为|更新成|设置为|设置成|设为|换成了?|重置为|(?:就|即|也|还)?[是为為]|[はが는])(?:[ \\t]*[:：])?)`;

/**
 * Sentence punctuation that may follow an unquoted value: kept after the value when nothing but
 * more of it comes before the value's end (`password: hunter2.` keeps its full stop), part of the
 * value when more of the value follows (`hunt.er2` goes whole). ASCII `,` and `;` always end a
 * value.
 */
const SENTENCE_PUNCTUATION = "[.!?。！？，；、]";

/**
 * A CJK sentence mark followed by a space, a non-ASCII character or the end ends a value, as a
 * space would: Chinese and Japanese run the next sentence on without one (`hunter2。下一步`). One
 * followed by an ASCII character stays in the value.
 */
const CJK_VALUE_END = "[。！？，；、](?![\\x21-\\x7E])";

/**
 * A secret said in prose after one of `names` (a regular-expression alternation, any case): after
 * "is", "was", 是, 为 or 為, a value of at least 6 characters with a digit; with `bare`, also right
 * after the name, a value of letters and digits both. The name and the words up to the value are
 * kept (group `keep`); never a value: one already redacted or an algorithm's name.
 */
function proseSecret(names: string, bare: boolean): RegExp {
  // A password may be all digits; a key or a token has a letter too ("tokens are 128000" is a count).
  const plural = bare ? "s?" : "";
  const letter = bare ? "" : `(?=[^\\s"'\`]*[a-zA-Z])`;
  const notValue = `(?!\\[redacted)(?!(?:${ALGORITHM}|${FILE_PATH})(?![^\\s"'\`,;]))`;
  const quote = `["'\`「『“‘]?`;
  // "the password for root is …", "the password of the db: …", "passwords are …", "is now …".
  const qualifier = `\\s+(?:for|of|on|to)(?:\\s+[\\w.@-]+){1,3}?`;
  const reset = "(?:reset|changed|set|updated|rotated)\\s+to";
  const verb =
    `\\s+(?:(?:is|was|are|were|has\\s+been)(?:\\s+(?:now|still|currently|actually|also))?` +
    `(?:\\s+${reset})?|${reset}|to)\\s*[:=]?`;
  // After an English verb, a value up to a space, quote, comma or semicolon ("is Pässw0rd" whole);
  // a full stop that ends the sentence stays.
  const en =
    `(?<keep>\\b(?:${names})${plural}(?:${qualifier}(?:${verb}|\\s*[:=])|${verb})\\s*${quote})` +
    `${notValue}(?=[^\\s"'\`]*[0-9])${letter}[^\\s"'\`,;]{5,}[^\\s"'\`,;.](?=\\.?(?![^\\s"'\`,;]))`;
  // After 是, 为 or 為, or right after the name, an ASCII value: the text around runs on without a
  // space (`password是「abc12345」后面`).
  const ascii = `[^\\s"'\`,;\\u0080-\\uffff]`;
  const cjk =
    `(?<keep2>\\b(?:${names})\\s*(?:改为|改成了?|更新为|设置为|设置成|设为|换成了?|重置为|(?:就|即|也|还)?[是为為])(?:\\s*[:：])?\\s*${quote})` +
    `${notValue}(?=${ascii}*[0-9])${letter}${ascii}{6,}`;
  // Right after the name, eight characters or more with a letter and two digits: "the password
  // hunter2024 works", not "the password column2 migration".
  const plain =
    `(?<keep3>\\b(?:${names})\\s+)${notValue}` +
    `(?=(?:[^\\s"'\`,;\\u0080-\\uffff0-9]*[0-9]){2})(?=${ascii}*[a-z])${ascii}{8,}(?![:=])`;
  return new RegExp(bare ? `${en}|${cjk}|${plain}` : `${en}|${cjk}`, "gi");
}

/** The `secret-assignment` expression (see {@link SECRET_PATTERNS}). */
function secretAssignment(): RegExp {
  // One character of a value: up to a space, quote, comma, semicolon or closing bracket, or a CJK
  // sentence mark that ends the sentence.
  const v = `(?:(?!${CJK_VALUE_END})[^\\s"'\`,;\\])])`;
  const end = `(?!${v})`;
  // A value's last character is not sentence punctuation: what follows it up to the value's end
  // may be only that, and is kept (`password: hunter2.`, `token=abc123!)`).
  const last = `(?!${SENTENCE_PUNCTUATION})${v}`;
  const valueEnd = `(?=${SENTENCE_PUNCTUATION}*${end})`;
  // The keywords in any case, and an environment variable's `_KEY` or `_PASS` in capitals
  // (`SECRET_KEY`, `STRIPE_KEY`, `DB_PASS`; not `sort_key`).
  const name = `\\b[A-Za-z0-9_.-]*(?:${anyCase(`(?:${LATIN_NAMES.join("|")})`)}|_(?:KEY|PASS))[sS]?`;
  // Markdown may wrap the name or the label: `**password**: …`, `**Password:** …`, `` `token`: … ``.
  const markup = "(?:\\*\\*|__|`)?";
  const keep = `(?<keep>${name}${markup}["']?\\s*${SEPARATOR}${markup}\\s*["']?)`;
  const notRedacted = `(?!\\[${anyCase("redacted")})`;
  const words = [
    ..."none null nil undefined true false yes no required optional empty unset tbd redacted hidden".split(
      " ",
    ),
    ..."string str number int integer bool boolean bytes buffer any unknown object".split(" "),
  ];
  const placeholder = [
    ...words.map(anyCase),
    "[nN]/[aA]",
    "\\*+",
    "\\.{2,}",
    "…",
    "[xX]{3,}",
    "<[^<>\\s\"'`]+>", // <your-key>
    "\\$\\{[^}\\s]*\\}", // ${VAR}
    "\\$[A-Z_][A-Z0-9_]*", // $VAR
    "\\{\\{[^}]*\\}\\}", // {{var}}
    "%[A-Za-z_]+%", // %VAR%
    FILE_PATH, // pwd: /home/user
  ].join("|");
  // A number after a plural name: `max_tokens: 4096`, `tokens=12`, `secrets: 3`.
  const count = `(?<=[sS]["']?\\s*${SEPARATOR}\\s*["']?)\\d+(?:[._,]\\d+)*[kKmM]?${valueEnd}`;
  // A short value: on the separator's line, with a letter or digit, and not a short word followed
  // by more words after `name: ` ("the rule for secrets: rotate them monthly").
  const short =
    `(?<=${SEPARATOR}${markup}[ \\t]*["']?)(?=${v}{0,6}[A-Za-z0-9])` +
    `(?!(?<=[^:][:：]${markup}[ \\t]+)[A-Za-z]{1,7}[ \\t]+[A-Za-z])${v}{0,6}${last}${valueEnd}`;
  // A placeholder may end a sentence: `secret: <your-key>.`, `token: none.`
  const placeholderEnd = `[.!?:]?${end}`;
  // A quoted value goes whole, spaces and all (`PASSWORD="hunter two"`), up to its closing quote.
  const quoted =
    `(?<keep2>${name}["']?[ \\t]*${SEPARATOR}[ \\t]*(?<q>["']))${notRedacted}` +
    `(?!(?:${placeholder})\\k<q>)(?!${count})[^"'\\n]{1,200}(?=\\k<q>)`;
  const algorithm = anyCase(ALGORITHM);
  const latin = `${keep}${notRedacted}(?!(?:${placeholder}|${algorithm})${placeholderEnd})(?!${count})(?:${v}{7,}${last}${valueEnd}|${short})`;
  // A name in Chinese, Japanese or Korean: its value is ASCII, at least CJK_VALUE_MIN characters,
  // on the name's line; the text after it may run on without a space (`密码是hunter2，然后…`).
  // Not a value: a placeholder, an algorithm's name, or an ASCII name with its own separator
  // (`密码是 password: …`).
  const a = `(?:(?![\\s"'\`,;\\])])[\\x21-\\x7E])`;
  const aEnd = `(?!${a})`;
  const cjkNotValue = `${notRedacted}(?!(?:${placeholder}|${algorithm})[.!?:]?${aEnd})(?!${name}["']?[ \\t]*${SEPARATOR})`;
  const cjkQuoted =
    `(?<keep3>${CJK_NAMES}["']?[ \\t]*${CJK_SEPARATOR}[ \\t]*(?<q2>["']))${cjkNotValue}` +
    `(?:(?!\\k<q2>)[\\x20-\\x7E]){${CJK_VALUE_MIN},200}(?=\\k<q2>)`;
  // After the separator, an opening quote of these scripts may come (`密码是「hunter2」`,
  // `密码：“hunter2”`): the ASCII value ends at its closing one.
  const cjkValue = `${a}{${CJK_VALUE_MIN - 1},}(?!${SENTENCE_PUNCTUATION})${a}(?=${SENTENCE_PUNCTUATION}*${aEnd})`;
  const cjk = `(?<keep4>${CJK_NAMES}["']?[ \\t]*${CJK_SEPARATOR}[ \\t]*["'「『“‘]?)${cjkNotValue}${cjkValue}`;
  // With only a space between (`root 密码 abcd5678`), the value also holds a letter and a digit:
  // "密码 policy 很严格" is prose.
  const cjkSpaced =
    `(?<keep5>${CJK_NAMES}[ \\t]+)${cjkNotValue}` + `(?=${a}*[0-9])(?=${a}*[A-Za-z])${cjkValue}`;
  return new RegExp(`${quoted}|${latin}|${cjkQuoted}|${cjk}|${cjkSpaced}`, "g");
}

/**
 * The table, most specific first (an Anthropic key also matches the OpenAI shape, a Slack webhook
 * holds a URL).
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: "private-key",
    // A whole block; a block cut before its END line is taken to the end of the text.
    pattern:
      /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    source: "gitleaks private-key; secretlint-rule-privatekey",
  },
  {
    name: "agent-memory-token",
    // This tool's own HTTP bearer tokens (src/mcp/http/tokens.ts, `newTokenSecret`): `amt_` and
    // 43 base64url characters; not `amt_` inside an identifier (`total_amt_paid`).
    pattern: /(?<![A-Za-z0-9_-])amt_[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])/g,
    source: "agent-memory's TOKEN_PREFIX (amt_) and TOKEN_BYTES; no gitleaks rule",
  },
  {
    name: "anthropic-api-key",
    pattern: /\bsk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_-]{20,}/g,
    source: "gitleaks anthropic-api-key, anthropic-admin-api-key (looser length)",
  },
  {
    name: "openai-api-key",
    pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}/g,
    source: "gitleaks openai-api-key (without its T3BlbkFJ marker: newer keys lack it)",
  },
  {
    name: "aws-access-key",
    // Any capital or digit after the prefix (secretlint's class), not only gitleaks' base32
    // A–Z2–7: a key written by hand or a near-real one must not pass (test/core/redact.test.ts).
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    source: "secretlint-rule-aws (AWSAccessKeyID); gitleaks aws-access-token",
  },
  {
    name: "aws-secret-key",
    pattern:
      /(?<keep>\baws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/gi,
    source: "secretlint-rule-aws (AWSSecretAccessKey)",
  },
  {
    name: "aws-secret-key",
    // Looser than its source: 40 characters of the key's alphabet with a digit, a capital and a
    // small letter, within a few words after "secret" in prose ("the secret is wJalr…").
    pattern:
      /(?<keep>\b(?:[Ss]ecret|SECRET)(?:[ _-]?(?:[Aa]ccess|ACCESS)?[ _-]?(?:[Kk]ey|KEY))?\b(?:\s+(?:is|was|=|:))?["'`]?\s*[:=]?\s*["'`]?)(?=[A-Za-z0-9/+]{0,39}[0-9])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    source: "gitleaks aws-secret-access-key (the word secret before a 40-character key)",
  },
  {
    name: "github-token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})/g,
    source:
      "gitleaks github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat; secretlint-rule-github",
  },
  {
    name: "gitlab-token",
    pattern: /\bgl(?:pat|dt|ptt|rt|soat|cbt|imt|agent|oas|ffct)-[A-Za-z0-9_-]{20,}/g,
    source:
      "gitleaks gitlab-pat, gitlab-deploy-token, gitlab-ptt, gitlab-rrt and the other gitlab-* rules",
  },
  {
    name: "slack-webhook",
    pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,}/g,
    source: "gitleaks slack-webhook-url; secretlint-rule-slack",
  },
  {
    name: "slack-token",
    pattern: /\bxox(?:[abposr]|e\.xox[bp]|[ce]-\d)-[A-Za-z0-9-]{10,}/g,
    source:
      "gitleaks slack-bot-token, slack-user-token, slack-app-token, slack-config-access-token; secretlint-rule-slack",
  },
  {
    name: "slack-app-token",
    pattern: /\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+/gi,
    source: "gitleaks slack-app-token",
  },
  {
    name: "google-api-key",
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
    source: "gitleaks gcp-api-key; secretlint-rule-gcp",
  },
  {
    name: "huggingface-token",
    pattern: /\bhf_[A-Za-z]{34}\b/g,
    source: "gitleaks huggingface-access-token",
  },
  {
    name: "stripe-key",
    pattern: /\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}/g,
    source: "gitleaks stripe-access-token",
  },
  {
    name: "npm-token",
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
    source: "gitleaks npm-access-token; secretlint-rule-npm",
  },
  {
    name: "groq-api-key",
    pattern: /\bgsk_[A-Za-z0-9]{52}\b/g,
    source: "Groq's key prefix (gsk_); no gitleaks rule",
  },
  {
    name: "xai-api-key",
    pattern: /\bxai-[A-Za-z0-9]{80}\b/g,
    source: "xAI's key prefix (xai-); no gitleaks rule",
  },
  {
    name: "jwt",
    pattern: /\bey[A-Za-z0-9_-]{10,}\.ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}={0,2}/g,
    source: "gitleaks jwt",
  },
  {
    name: "auth-header",
    pattern:
      /(?<keep>\bAuthorization["']?\s*[:=]\s*["']?(?:Basic|Bearer|Token)\s+)(?!\[redacted)[A-Za-z0-9._~+/=-]{8,}|(?<keep2>\bBearer\s+)(?!\[redacted)(?=[A-Za-z0-9._~+/=-]*[0-9])(?=[A-Za-z0-9._~+/=-]*[A-Za-z])[A-Za-z0-9._~+/=-]{12,}/gi,
    source: "gitleaks curl-auth-header",
  },
  {
    name: "auth-user",
    // `curl -u user:password`, `--user user:password`
    pattern: /(?<keep>(?:^|\s)(?:-u|--user)[ =]?["']?[^\s:"']+:)(?!\[redacted)[^\s"']+/g,
    source: "gitleaks curl-auth-user",
  },
  {
    name: "password-option",
    // `--password hunter2`, `--api-key=…`, `--db-token …`, `sshpass -p …`, `mysql -pS3cret`: a
    // command's option that takes a secret; the option is kept.
    pattern:
      /(?<keep>(?:^|\s)(?:--(?!no-)(?:[a-z0-9]+-)*(?:token|password|passwd|pass|passphrase|secret|api-?key|access-key)[ =]|sshpass\s+-p\s*|-(?:storepass|keypass|srcstorepass|deststorepass)\s+|-pass(?:in|out)\s+pass:)["']?)(?!\[redacted)[^\s"'`;]{4,}|(?<keep3>\b(?:(?:docker|podman|helm)\s+(?:registry\s+)?login\b[^\n]*?\s(?:-p|--password)[ =]?|redis-cli\b[^\n]*?\s-a\s+|sqlcmd\b[^\n]*?\s-P\s*|ldap(?:search|modify|add|delete|whoami)\b[^\n]*?\s-w\s+|zip\b[^\n]*?\s-P\s+|7z\b[^\n]*?\s-p))(?!\[redacted)[^\s"'`;]+|(?<keep2>\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p)(?!\[redacted)[^\s"'`;]+/gi,
    source:
      "gitleaks' keyword list as command options; sshpass -p and the mysql client's -pPASSWORD (their manuals)",
  },
  {
    name: "password-prose",
    // "the db password is Sup3rS3cret!", "password 是 abcd5678": a value after "password is" (or
    // 是, 为) with a digit in it, so "the password is required" and "the password is expired!"
    // stay; and "the password hunter2024 works": right after the word, a value of letters and
    // digits both. Never an algorithm's name ("password sha256").
    pattern: proseSecret("password|passphrase|passwd|pwd", true),
    source:
      "gitleaks generic-api-key's keywords in prose, with a digit instead of its entropy check",
  },
  {
    name: "secret-prose",
    // "The API key is qwe123rty456", "the token was ghx99abc1234", "API key是xyz12345678": as
    // password-prose, after "is", "was", 是 or 为 only ("the token is valid for 3600 seconds"
    // stays).
    pattern: proseSecret(
      "(?:api|secret|private|access|signing|encryption|client)[ _-]?key|(?:access|auth|api|bearer|refresh)[ _-]?token|token|secret",
      false,
    ),
    source:
      "gitleaks generic-api-key's keywords in prose, with a digit instead of its entropy check",
  },
  {
    name: "secret-assignment",
    // `OPENAI_API_KEY=…`, `"password": "…"`, `export GH_TOKEN=…`, `[db_password:: …]`: the name is
    // kept, the value goes, whatever its length (`password=hunter2`, `DB_PASSWORD=abc`). Not a
    // value: a placeholder (`none`, `<your-key>`, `${VAR}`, `***`, a type name), a count after a
    // plural name (`max_tokens: 4096`), or a short word followed by more words after `name: ` in
    // prose ("secrets: rotate them"). A name in Chinese, Japanese or Korean (`密码：`, `令牌是`,
    // `パスワードは`, SECRET_NAME_LIST) takes an ASCII value of CJK_VALUE_MIN characters or more.
    pattern: secretAssignment(),
    source: "gitleaks generic-api-key (its keyword list, without the entropy check)",
  },
];

/**
 * `text` with every secret of {@link SECRET_PATTERNS} replaced by `[redacted: name]`, and the
 * user name and password of URLs removed ({@link redactUrl}). Text without secrets comes back
 * unchanged, and so does text already redacted (redacting twice gives what redacting once gives).
 */
export function redactSecrets(text: string): string {
  // URLs first: a `?token=…` parameter becomes `?token=[redacted]` rather than being taken by the
  // generic assignment rule.
  let out = redactUrl(text);
  for (const p of SECRET_PATTERNS)
    out = out.replace(p.pattern, (...args: unknown[]) => {
      const groups = args[args.length - 1] as Record<string, string | undefined> | undefined;
      const keep =
        typeof groups === "object" && groups !== null
          ? Object.entries(groups).find(([k, g]) => k.startsWith("keep") && g !== undefined)?.[1]
          : undefined;
      return `${keep ?? ""}[redacted: ${p.name}]`;
    });
  return out.replace(WRAPPED_TAIL, "$1");
}

/**
 * Where to cut `text` at `at` characters without splitting a `[redacted: …]` label: `at`, or the
 * start of the label that would cross the cut. For a text already redacted and cut to a length.
 */
export function cutBeforeRedaction(text: string, at: number): number {
  const open = text.lastIndexOf("[redacted", at - 1);
  if (open < 0) return at;
  const close = text.indexOf("]", open);
  return close < 0 || close >= at ? open : at;
}

/**
 * A key redacted at the end of a line whose next line is nothing but more of a key's characters
 * (at least 16, no space): a long key a terminal or a paste wrapped. The tail goes with the key.
 */
const WRAPPED_TAIL =
  /(\[redacted: [a-z0-9-]+\])[ \t]*\r?\n[ \t]*[A-Za-z0-9_+/=-]{16,}[ \t]*(?=\r?\n|$)/g;

/**
 * True when a field or option named `name` holds a secret by its name alone (`password`,
 * `api_key`, `db_token`, `client-secret`, `credentials`, `密码`, `数据库密码`): the names of
 * {@link SECRET_NAME_LIST} the `secret-assignment` pattern keys on, `token` in the singular only
 * (`max_tokens` is a count). A tool's `fields` argument has no `=` for the pattern to see.
 */
export function isSecretName(name: string): boolean {
  const n = name.trim();
  // `token` in the singular only (`max_tokens` is a count); `_KEY` / `_PASS` in capitals.
  const plural = LATIN_NAMES.filter((w) => w !== "token").join("|");
  return (
    new RegExp(`(?:(?:${plural})s?|token)$`, "i").test(n) ||
    /_(?:KEYS?|PASS)$/.test(n) ||
    new RegExp(`${CJK_NAMES}$`).test(n)
  );
}
