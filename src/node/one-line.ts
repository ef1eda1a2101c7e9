import { redactUrl } from "../core/url";

/**
 * One line of an error report (docs/architecture.md, "The CLI contract": "a one-line reason on
 * stderr"): line breaks in a library's message (YAML, parseArgs) become spaces, so `2>&1 | grep`
 * and log parsers see one record, and the user name and password of any URL in it are removed
 * ({@link redactUrl}, docs/decisions.md, "Credentials never go in the base URL"). The MCP server's
 * tool errors are worded by it too (docs/mcp.md, "Tools": "a one-line reason").
 */
export function oneLine(text: string): string {
  return redactUrl(text.replace(/\s*[\r\n]+\s*/g, " ").trim());
}
