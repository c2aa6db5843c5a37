// Reading our TypeScript sources for the architecture test: the code with comments, strings, template literals and
// regular expressions blanked (line breaks kept, so line numbers hold), and the module-level state found in it.

/**
 * `text` with every comment, string, template literal (its `${}` parts included) and regular-expression literal
 * replaced by spaces: what is left is code, so a scan of it never matches words inside a browser script, a message or
 * a pattern.
 */
export function codeOnly(text: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  let prev = ""; // the last significant code character: tells a regular expression from a division
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const to = end < 0 ? text.length : end;
      blank(i, to);
      i = to;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const to = end < 0 ? text.length : end + 2;
      blank(i, to);
      i = to;
    } else if (c === '"' || c === "'") {
      const to = quotedEnd(text, i, c);
      blank(i, to);
      i = to;
      prev = "a";
    } else if (c === "`") {
      const to = templateEnd(text, i);
      blank(i, to);
      i = to;
      prev = "a";
    } else if (c === "/" && (prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev) || /\b(return|typeof|case|in|of)\s*$/.test(text.slice(Math.max(0, i - 8), i)))) {
      const to = regexEnd(text, i);
      blank(i, to);
      i = to;
      prev = "a";
    } else {
      if (!/\s/.test(c)) prev = c;
      i++;
    }
  }
  return out.join("");
}

function quotedEnd(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

function regexEnd(text: string, start: number): number {
  let i = start + 1;
  let inClass = false;
  while (i < text.length && text[i] !== "\n") {
    const c = text[i]!;
    if (c === "\\") i++;
    else if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) break;
    i++;
  }
  i++;
  while (i < text.length && /[a-z]/.test(text[i]!)) i++;
  return i;
}

/** The end of the template literal opening at `start`, past `${...}` parts that hold strings and templates of their own. */
function templateEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") i += 2;
    else if (c === "`") return i + 1;
    else if (c === "$" && text[i + 1] === "{") {
      i += 2;
      let depth = 1;
      while (i < text.length && depth > 0) {
        const d = text[i]!;
        if (d === '"' || d === "'") i = quotedEnd(text, i, d);
        else if (d === "`") i = templateEnd(text, i);
        else {
          if (d === "{") depth++;
          else if (d === "}") depth--;
          i++;
        }
      }
    } else i++;
  }
  return i;
}

/** Each line of `code` (from codeOnly) with the brace depth at its start: 0 is the module's top level. */
export function linesWithDepth(code: string): { line: string; n: number; depth: number }[] {
  let depth = 0;
  return code.split("\n").map((line, k) => {
    const at = depth;
    for (const ch of line) {
      if (ch === "{") depth++;
      else if (ch === "}") depth--;
    }
    return { line, n: k + 1, depth: at };
  });
}

const WRITE_METHODS = "set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin";

/**
 * Module-level mutable state in a source: `let` or `var` at the top level, and top-level collections (a Map, Set,
 * WeakMap, array or object literal) written through their name anywhere in the module. A table built once by a
 * function (`const T = build(...)`) and never written afterwards is a constant, and passes.
 */
export function moduleState(text: string): string[] {
  const code = codeOnly(text);
  const found: string[] = [];
  for (const { line, n, depth } of linesWithDepth(code)) {
    if (depth !== 0) continue;
    const variable = /^(?:export\s+)?(let|var)\s+(\w+)/.exec(line);
    if (variable) found.push(`line ${n}: module-level ${variable[1]} ${variable[2]}`);
    const collection = /^(?:export\s+)?const\s+(\w+)\s*(?::[^=]+)?=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet)\b|\[|\{)/.exec(line);
    if (!collection) continue;
    const name = collection[1]!;
    const written = new RegExp(
      `(?<![\\w.])${name}\\s*(?:\\.(?:${WRITE_METHODS})\\s*\\(|\\[[^\\]]*\\]\\s*(?:[-+*/?|&]{0,2}=(?!=)|\\+\\+|--)|\\.\\w+\\s*(?:[-+*/?|&]{0,2}=(?![=>])|\\+\\+|--))|Object\\.assign\\(\\s*${name}\\b`,
    );
    if (written.test(code)) found.push(`line ${n}: module-level ${name} is written after it is made`);
  }
  return found;
}

/**
 * Map and Set fields of classes and long-lived objects that nothing bounds: `x = new Map()` as a class field, or
 * `x: new Map()` as an empty object-literal property. Each must be a BoundedCache, or say what bounds it in the
 * comment just above it (a word "bounded" in the three lines before it).
 */
export function unboundedCollectionFields(text: string): string[] {
  const lines = text.split("\n");
  const code = codeOnly(text).split("\n");
  const found: string[] = [];
  code.forEach((line, k) => {
    // A class field has a modifier (private, readonly, ...) or a # name; an object property is `name: new Map()`.
    const field = /^\s+(?:(?:private|protected|public|readonly|static)\s+)+(\w+)\s*(?::[^=]+)?=\s*new (?:Map|Set)\b/.exec(line) ?? /^\s+#(\w+)\s*(?::[^=]+)?=\s*new (?:Map|Set)\b/.exec(line) ?? /^\s+(\w+):\s*new (?:Map|Set)(?:<[^>]*>)?\(\)/.exec(line);
    if (!field) return;
    const above = lines.slice(Math.max(0, k - 3), k + 1).join("\n");
    if (!/bounded/i.test(above)) found.push(`line ${k + 1}: ${field[1]}`);
  });
  return found;
}
