/**
 * How the simulated host reads a command line, as a POSIX shell does for the small part it runs: a list (`;`, `&&`,
 * `||`), its pipes, and each command's words (quotes, `$VAR`, escapes).
 */
/** `a | b` into its commands (`||` is splitList's); quotes are respected. */
export function splitPipe(text: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quote = "";
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "|") {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.filter((x) => x.trim());
}

/** `a; b && c || d` into its commands, each with the operator before it; quotes are respected. */
export function splitList(line: string): { op: ";" | "&&" | "||"; text: string }[] {
  const out: { op: ";" | "&&" | "||"; text: string }[] = [];
  let op: ";" | "&&" | "||" = ";";
  let cur = "";
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = "";
      cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ";" || c === "\n" || ((c === "&" || c === "|") && line[i + 1] === c)) {
      out.push({ op, text: cur });
      op = c === ";" || c === "\n" ? ";" : (`${c}${c}` as "&&" | "||");
      if (c !== ";" && c !== "\n") i++;
      cur = "";
    } else cur += c;
  }
  out.push({ op, text: cur });
  return out.filter((x) => x.text.trim());
}

/** Words of one command: quotes group, `$VAR` expands (not inside single quotes), `>`/`>>` stand alone. */
export function tokenize(text: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  let quote = "";
  const push = () => {
    if (cur !== undefined) words.push(cur);
    cur = undefined;
  };
  /** `$NAME` or `${NAME}` at `i`: appends the value and answers the index of the reference's last character. */
  const expand = (i: number): number => {
    const m = /^\$\{?([A-Za-z_]\w*|\?)\}?/.exec(text.slice(i));
    cur = (cur ?? "") + (m ? (env[m[1]] ?? "") : "$");
    return m ? i + m[0].length - 1 : i;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "$" && quote === '"') i = expand(i);
      else cur = (cur ?? "") + c;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur = cur ?? "";
    } else if (/\s/.test(c)) push();
    else if (c === "2" && cur === undefined && text[i + 1] === ">" && text[i + 2] !== "&") {
      words.push("2>");
      i++;
    } else if (c === ">") {
      push();
      if (text[i + 1] === "&" && text[i + 2] === "2") words.push(((i += 2), ">&2"));
      else words.push(text[i + 1] === ">" ? (i++, ">>") : ">");
    } else if (c === "$") i = expand(i);
    else cur = (cur ?? "") + c;
  }
  push();
  return words;
}
