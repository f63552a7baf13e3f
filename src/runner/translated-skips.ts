// A translated-route skip names the checks of the run that judge that route by meaning. It is
// written when the check ends, before those checks have run; once every check has ended, the
// names are kept only for those that judged (any outcome but a skip, a time-out or an error), so
// a skip never points to a translate check that did not judge the route.
import type { CheckResult } from '../report/shared/types.js';

/** What a translated-route skip was written from (kept in its evidence as `translatedRoute`). */
export interface TranslatedSkipFacts {
  client: string;
  upstream: string;
  what: string;
  judges: string[];
}

/** Why a check that compares what a translation cannot keep does not judge a translated route, and which checks of this run judge it instead (`judges`: none said so). */
export const translatedSkip = (route: { client: string; upstream: string }, what: string, judges: string[] = []) =>
  `translated route: ${route.client} → ${route.upstream}: ${what} cannot be compared across a translation; ${judges.length ? `${judges.join(', ')} judge${judges.length === 1 ? 's' : ''} this route by meaning` : `no check of this run judges a ${route.client} client's translated route by meaning`}`;

const JUDGED = new Set<CheckResult['outcome']>(['pass', 'fail', 'warn', 'info']);

/** The run's results with each translated-route skip naming only the judges that judged. */
export function namingJudgesThatJudged(results: CheckResult[]): CheckResult[] {
  const outcome = new Map(results.filter(Boolean).map((r) => [r.id, r.outcome]));
  return results.map((r) => {
    const facts = r?.outcome === 'skip' ? (r.evidence as { translatedRoute?: TranslatedSkipFacts } | null)?.translatedRoute : undefined;
    if (!facts) return r;
    const judged = facts.judges.filter((id) => JUDGED.has(outcome.get(id)!));
    return judged.length === facts.judges.length ? r : { ...r, message: translatedSkip(facts, facts.what, judged), evidence: { ...r.evidence, translatedRoute: { ...facts, judges: judged, notJudged: facts.judges.filter((id) => !judged.includes(id)) } } };
  });
}
