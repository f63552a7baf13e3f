// The checks of translated routes: a gateway that forwards one protocol upstream as another is
// judged by meaning (request, answer, stream, errors); they run where the readiness canary of
// their protocol reached the upstream in another protocol.
import type { CheckDef } from '../../src/check/check.js';
import translateAnswerMeaning from './translate.answer.meaning.js';
import translateErrorsMapped from './translate.errors.mapped.js';
import translateRequestMeaning from './translate.request.meaning.js';
import translateStreamIncremental from './translate.stream.incremental.js';
import translateStreamMeaning from './translate.stream.meaning.js';
import translateStopReasons from './translate.stop.reasons.js';
import translateBetasCarried from './translate.betas.carried.js';
import translateThoughtSignatureKept from './translate.thought-signature.kept.js';
import translateBodyEncoded from './translate.body.encoded.js';

export const TRANSLATE_CHECKS: CheckDef[] = [translateRequestMeaning, translateAnswerMeaning, translateStreamIncremental, translateStreamMeaning, translateErrorsMapped, translateStopReasons, translateBetasCarried, translateThoughtSignatureKept, translateBodyEncoded];
