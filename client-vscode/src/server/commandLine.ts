/**
 * Shell-like splitting of the `agentls.serverCommand` setting into argv: whitespace
 * separates words; 'single quotes' keep everything literally; "double quotes" keep spaces
 * and honour \" \\ \$ \`; outside quotes a backslash escapes the next character (POSIX) —
 * on Windows a backslash is a path separator and only `\"` escapes a quote.
 * No expansion ($VAR, ~, globs) and no operators: the words go to spawn() as they are.
 * Must not know: VS Code, processes.
 */

export class CommandLineError extends Error {}

export function splitCommandLine(line: string, platform: NodeJS.Platform = process.platform): string[] {
  const windows = platform === "win32";
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') {
        quote = null;
      } else if (ch === "\\" && i + 1 < line.length && (windows ? line[i + 1] === '"' : '"\\$`'.includes(line[i + 1]))) {
        word += line[++i];
      } else {
        word += ch;
      }
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && !windows) {
      if (i + 1 >= line.length) throw new CommandLineError("the command line ends with a lone backslash");
      word += line[++i];
      inWord = true;
    } else if (ch === "\\" && windows && line[i + 1] === '"') {
      word += line[++i];
      inWord = true;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new CommandLineError(`unterminated ${quote === "'" ? "single" : "double"} quote in the command line`);
  if (inWord) words.push(word);
  return words;
}
