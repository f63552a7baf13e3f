// Types of scripts/checks-reference.mjs for the tests that import it (the fields of a check it reads).
export interface CheckFacts {
  id: string;
  title: string;
  area: string;
  level: string;
  profile: string;
  protocol?: string;
  requirements: string[];
  requirement: string;
  /** How to fix a failure (CheckDef.fix). */
  fix: string;
}

export function checksReference(
  checks: readonly CheckFacts[],
  catalog: { requirements: Array<{ id: string; level: string; text: string }> },
  protocols?: ReadonlyArray<{ name: string; title: string; defaultCredential: string; features: readonly string[] }>,
): string;
