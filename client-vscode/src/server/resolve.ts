/**
 * Which command starts the language server (DESIGN §8): `agentls.serverCommand` when set
 * (split shell-like), else the workspace's `.venv` agentls (`.venv/bin/agentls serve`;
 * Windows `.venv\Scripts\agentls.exe serve`), else `agentls serve` from PATH. When nothing
 * is found the answer is one actionable message (what was tried, how to install, where the
 * setting is). In an untrusted workspace the workspace's `.venv` is not tried: running a
 * program the workspace ships is exactly what trust guards (the setting is a restricted
 * configuration there, so only the user's own value counts).
 * Must not know: VS Code (the file checks are injected, so the unit tests need no disk).
 */

import * as path from "path";
import { CommandLineError, splitCommandLine } from "./commandLine";

export interface ResolveInput {
  /** `agentls.serverCommand` ("" = not set) */
  setting: string;
  /** workspace folder paths, in order */
  folders: readonly string[];
  platform: NodeJS.Platform;
  trusted: boolean;
  /** PATH (and PATHEXT on Windows) of the extension host */
  env: { PATH?: string; Path?: string; PATHEXT?: string };
  /** whether a file exists and may be executed */
  isExecutable(file: string): boolean;
}

export type ServerSource = "setting" | "venv" | "path";

export type Resolution =
  | { ok: true; command: string; args: string[]; source: ServerSource; description: string }
  | { ok: false; message: string; tried: string[] };

export const SETTING_KEY = "agentls.serverCommand";

/** The install advice: agentls is installed from its repository (it is not on PyPI). */
export function installHint(platform: NodeJS.Platform): string {
  const pip = platform === "win32" ? ".venv\\Scripts\\pip" : ".venv/bin/pip";
  return (
    `Install it into this workspace with \`python3 -m venv .venv && ${pip} install -e <path of your agentls checkout>\` ` +
    `(agentls is installed from its source repository), or set ${SETTING_KEY} to the command line that starts \`agentls serve\`.`
  );
}

export function resolveServerCommand(input: ResolveInput): Resolution {
  const p = input.platform === "win32" ? path.win32 : path.posix;
  const tried: string[] = [];
  const setting = input.setting.trim();
  if (setting) {
    let argv: string[];
    try {
      argv = splitCommandLine(setting, input.platform);
    } catch (err) {
      const why = err instanceof CommandLineError ? err.message : String(err);
      return { ok: false, tried: [setting], message: `agentls: ${SETTING_KEY} "${setting}" cannot be read: ${why}.` };
    }
    if (argv.length === 0) {
      return { ok: false, tried: [setting], message: `agentls: ${SETTING_KEY} is empty after splitting it into words.` };
    }
    const [program, ...args] = argv;
    const found = locate(program, input, p);
    if (!found) {
      const where = hasSeparator(program) ? "is not an executable file" : "was not found on PATH";
      return {
        ok: false,
        tried: [setting],
        message:
          `agentls: the language server could not be started: ${SETTING_KEY} is "${setting}", but "${program}" ${where}. ` +
          `Point ${SETTING_KEY} at the agentls executable (for example \`/path/to/.venv/bin/agentls serve\`), or clear it to use ` +
          `the workspace's .venv or PATH. agentls is installed with \`python3 -m venv .venv && .venv/bin/pip install -e <path of your agentls checkout>\`.`,
      };
    }
    return { ok: true, command: found, args, source: "setting", description: `${SETTING_KEY}: ${setting}` };
  }
  if (input.trusted) {
    for (const folder of input.folders) {
      const venv =
        input.platform === "win32" ? p.join(folder, ".venv", "Scripts", "agentls.exe") : p.join(folder, ".venv", "bin", "agentls");
      tried.push(venv);
      if (input.isExecutable(venv)) {
        return { ok: true, command: venv, args: ["serve"], source: "venv", description: `the workspace's ${venv}` };
      }
    }
  }
  tried.push("agentls on PATH");
  const onPath = locate("agentls", input, p);
  if (onPath) return { ok: true, command: onPath, args: ["serve"], source: "path", description: `${onPath} (from PATH)` };
  const skipped = input.trusted ? "" : " (the workspace's .venv is not used while the workspace is untrusted)";
  return {
    ok: false,
    tried,
    message: `agentls: the language server was not found: tried ${tried.join(", ")}${skipped}. ${installHint(input.platform)}`,
  };
}

function hasSeparator(program: string): boolean {
  return program.includes("/") || program.includes("\\");
}

/** An explicit path (absolute, or relative to the first folder) or a PATH lookup. */
function locate(program: string, input: ResolveInput, p: typeof path.posix): string | undefined {
  const exts = input.platform === "win32" ? ["", ...(input.env.PATHEXT ?? ".EXE;.CMD;.BAT;.COM").split(";").filter(Boolean)] : [""];
  const candidates = (base: string) => exts.map((ext) => base + ext.toLowerCase()).concat(exts.slice(1).map((ext) => base + ext));
  if (hasSeparator(program) || p.isAbsolute(program)) {
    const full = p.isAbsolute(program) ? program : p.resolve(input.folders[0] ?? p.sep, program);
    return candidates(full).find((c) => input.isExecutable(c));
  }
  const dirs = (input.env.PATH ?? input.env.Path ?? "").split(input.platform === "win32" ? ";" : ":").filter(Boolean);
  for (const dir of dirs) {
    const hit = candidates(p.join(dir, program)).find((c) => input.isExecutable(c));
    if (hit) return hit;
  }
  return undefined;
}
