// `run --dry-run` and `demo --dry-run`: the checks a run would run, with its selection (--profile,
// --only, --skip, --shard, --capabilities) and its declared protocols applied, each with its level
// and requirement IDs, and the ones that would be skipped as not declared with why, and the
// WebSocket routes the socket checks take as served (--websockets). Nothing is
// started and nothing is sent, so no --target is needed.
import type { RunConfig } from '../../src/config/config.js';
import type { CheckDef } from '../../src/check/check.js';
import { profileFeature } from '../../src/core/features.js';
import { notDeclared } from '../../src/runner/runner.js';
import { runSelection } from '../../src/runner/run.js';
import type { Io } from './context.js';
import { plural } from '../../src/core/words.js';

/** Prints the selection, one check a line, then how many would run; exit 0. */
export function dryRun(all: CheckDef[], cfg: RunConfig, io: Io): number {
  const checks = runSelection(all, cfg);
  const feature = profileFeature(cfg.profile);
  const declared = new Set<string>([...cfg.protocols, ...(feature ? [feature] : [])]);
  const width = Math.max(0, ...checks.map((c) => c.id.length));
  let skipped = 0;
  for (const c of checks) {
    const why = notDeclared(c, declared);
    if (why) skipped++;
    io.out(`${c.id.padEnd(width)}  ${c.level.padEnd(6)} ${c.requirements.join(', ')}${why ? `  (would be skipped: ${why})` : ''}`);
  }
  if (checks.some((c) => c.area === 'sockets')) io.out(`WebSocket routes served: ${cfg.websockets.served.join(', ') || 'none (only the refusal is judged)'}; quiet sockets held ${cfg.websockets.idleS} s`);
  io.out(`dry run: ${plural(checks.length - skipped, 'check')} would run${skipped ? `, ${skipped} would be skipped as not declared` : ''} (profile ${cfg.profile}); nothing was started or sent`);
  return 0;
}
