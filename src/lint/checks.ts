// The rules beyond the schema, per dialect: a registry from rule ID to the check of that rule
// (outline-rules.ts, public-rules.ts). A check reports findings of its own rule only: the
// registry stamps the ID on them.
import type { Dialect } from './rules.js';
import type { RawFinding } from './schema.js';
import { OUTLINE_RULES } from './outline-rules.js';
import { PUBLIC_RULES } from './public-rules.js';
import { obj, type RuleCheck } from './values.js';

export { outlineSecretKey } from './outline-rules.js';

/** Each dialect's checks, by rule ID. */
export const RULE_CHECKS: Readonly<Record<Dialect, ReadonlyMap<string, RuleCheck>>> = {
  outline: OUTLINE_RULES,
  'claude-apps-gateway': PUBLIC_RULES,
};

/** Runs every check of the dialect on the parsed file. */
export function semanticChecks(dialect: Dialect, data: unknown): RawFinding[] {
  const out: RawFinding[] = [];
  const root = obj(data);
  for (const [rule, check] of RULE_CHECKS[dialect]) check(root, (path, message, hint) => out.push({ rule, path, message, hint }));
  return out;
}
