// The completion script of each shell `gw-conformance completion` writes, from one spec.
import type { CompletionShell } from '../../src/config/commands.js';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { CompletionSpec } from './spec.js';
import { zshScript } from './zsh.js';

export { completionSpec } from './spec.js';

export const COMPLETION_SCRIPTS: Record<CompletionShell, (spec: CompletionSpec) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };
