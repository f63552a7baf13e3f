// Files that ship with the harness (fixtures, schemas, the catalog), found from the package
// root so the same code works from src/ under vitest and from dist/ when installed.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'gw-conformance') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('gw-conformance: cannot find the package root');
    dir = up;
  }
}

export const ROOT = findRoot();
export const rootPath = (...parts: string[]) => join(ROOT, ...parts);
export const readText = (...parts: string[]) => readFileSync(rootPath(...parts), 'utf8');
export const VERSION: string = JSON.parse(readText('package.json')).version;
/** The Claude Code release the real-client tests, the client profile and CI pin (package.json `config`). */
export const CLAUDE_CODE_PINNED: string = JSON.parse(readText('package.json')).config.claudeCodeVersion;
/** The Gemini CLI release the client profile and CI pin (package.json `config`). */
export const GEMINI_CLI_PINNED: string = JSON.parse(readText('package.json')).config.geminiCliVersion;
/** The Codex CLI release the client profile and CI pin (package.json `config`). */
export const CODEX_PINNED: string = JSON.parse(readText('package.json')).config.codexVersion;
