// The run configuration of the run commands (run, demo, certify): flags, environment, then
// gwc.yaml, checked before anything starts. Loaded by those commands' actions, not at start-up:
// it needs the checks (suites/) to check the selection.
import { loadConfigFile, resolveConfig, type FlagValues, type RunConfig } from '../../src/config/config.js';
import { assertSelectors } from '../../src/runner/registry.js';
import { CHECKS } from '../../suites/index.js';
import { assertWritableDir } from './out-dir.js';
import type { Io } from './context.js';
import { requireOptional } from '../../src/core/optional.js';

/** The reporters that write into the report folder. */
const FILE_REPORTERS: readonly string[] = ['junit', 'json', 'html'];

/**
 * The run configuration: flags, environment, then gwc.yaml (or the --config file). The setup is
 * checked here, before anything starts: the selection names checks, and the report folder can be
 * written (always, with `alwaysWrites`: certify writes its folder whatever the reporters).
 */
export function runConfig(opts: FlagValues & { config?: string }, io: Io, { alwaysWrites = false } = {}): RunConfig {
  const path = opts.config ?? 'gwc.yaml';
  const file = loadConfigFile(path, opts.config !== undefined);
  const cfg = resolveConfig(opts, file, io.env, path);
  assertSelectors(CHECKS, cfg.only, '--only');
  assertSelectors(CHECKS, cfg.skip, '--skip');
  // The mcp protocol's recording server and client are the official SDK's, an optional package: one line before the run.
  if (cfg.protocols.includes('mcp')) requireOptional('mcp');
  if (alwaysWrites || cfg.reporter.some((r) => FILE_REPORTERS.includes(r))) assertWritableDir(cfg.out);
  return cfg;
}

