/**
 * A zone file's text as entries, the way BIND's and dnspython's readers cut it: one entry per record or directive,
 * parentheses joining lines, `;` comments and blank lines gone, quoted strings and `\X` / `\DDD` escapes resolved.
 * Each token keeps whether it was quoted and whether it touched the one before (`alpn="h3"` is two tokens, glued).
 */
export class ZoneFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
    remedy: string,
  ) {
    super(`zone file, line ${line}: ${message}. ${remedy}`);
    this.name = "ZoneFileError";
  }
}

export type Token = { text: string; quoted: boolean; glued: boolean; raw: string };
/** `comment`: the entry's `;` comments, where the service's own export keeps `cf_tags=cf-proxied:true`. */
export type Entry = { line: number; startsBlank: boolean; tokens: Token[]; comment: string };

const utf8 = new TextDecoder("utf-8", { fatal: false });

/**
 * The text of one quoted string or word with its escapes resolved. `\DDD` is a byte (as in dnspython), so the
 * result is the bytes read as UTF-8; a value above 255 is refused as BIND refuses it.
 */
export function unescape(raw: string, line: number): { text: string; bytes: number } {
  if (!raw.includes("\\")) return { text: raw, bytes: Buffer.byteLength(raw) };
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== "\\") {
      bytes.push(...Buffer.from(c));
      continue;
    }
    const ddd = /^\d{3}/.exec(raw.slice(i + 1));
    if (ddd) {
      const n = Number(ddd[0]);
      if (n > 255)
        throw new ZoneFileError(line, `the escape \\${ddd[0]} is not a byte (000 to 255)`, "Write a byte's decimal value, \\000 to \\255");
      bytes.push(n);
      i += 3;
    } else if (/^\d/.test(raw.slice(i + 1))) {
      throw new ZoneFileError(
        line,
        "a `\\` followed by a digit needs three digits (\\DDD)",
        "Write the byte as three digits, e.g. \\059 for `;`",
      );
    } else {
      bytes.push(...Buffer.from(raw[i + 1]));
      i++;
    }
  }
  return { text: utf8.decode(Uint8Array.from(bytes)), bytes: bytes.length };
}

export function entries(text: string): Entry[] {
  const out: Entry[] = [];
  let current: Entry | undefined;
  let depth = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!current) current = { line: i + 1, startsBlank: /^[ \t]/.test(line), tokens: [], comment: "" };
    let at = 0;
    let glued = false;
    while (at < line.length) {
      const c = line[at];
      if (c === ";") {
        current.comment += line.slice(at + 1);
        break;
      }
      if (c === " " || c === "\t") {
        at++;
        glued = false;
      } else if (c === "(") {
        depth++;
        at++;
        glued = false;
      } else if (c === ")") {
        if (--depth < 0) throw new ZoneFileError(i + 1, "a `)` closes no `(`", "Remove it or add the `(` it closes");
        at++;
        glued = false;
      } else if (c === '"') {
        const m = /^"((?:[^"\\]|\\.)*)"/.exec(line.slice(at));
        if (!m)
          throw new ZoneFileError(
            i + 1,
            "a quoted string is not closed on its line",
            'Close it with `"`; a text longer than a line is several quoted strings inside parentheses',
          );
        current.tokens.push({ text: unescape(m[1], i + 1).text, quoted: true, glued, raw: m[0] });
        at += m[0].length;
        glued = true;
      } else {
        const m = /^(?:[^\s;()"\\]|\\.)+/.exec(line.slice(at));
        if (!m) throw new ZoneFileError(i + 1, "a `\\` ends the line with nothing to escape", "Remove it, or write `\\\\` for a backslash");
        current.tokens.push({ text: unescape(m[0], i + 1).text, quoted: false, glued, raw: m[0] });
        at += m[0].length;
        glued = true;
      }
    }
    if (depth === 0) {
      if (current.tokens.length) out.push(current);
      current = undefined;
    }
  }
  if (depth > 0 && current) throw new ZoneFileError(current.line, "a `(` is not closed before the end of the file", "Close it with `)`");
  return out;
}
