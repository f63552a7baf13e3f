// Types of scripts/checks-reference.mjs for the tests that import it.
import type { CheckDef } from '../src/core/check.js';

export function checksReference(
  checks: ReadonlyArray<Pick<CheckDef, 'id' | 'title' | 'area' | 'level' | 'profile' | 'protocol' | 'requirements' | 'requirement'>>,
  catalog: { requirements: Array<{ id: string; level: string; text: string }> },
  fixes: Readonly<Record<string, string>>,
): string;
