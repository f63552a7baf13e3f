// The messages core suite (issue: foundation). Adding a check means adding it here.
import type { CheckDef } from '../../src/check/check.js';
import path from './messages.path.preserved.js';
import bodySemantic from './messages.body.semantic.js';
import bodyBytes from './messages.body.bytes.js';
import unknownFields from './messages.body.unknown-fields.js';
import arrays from './messages.body.arrays.js';
import sysUnchanged from './messages.system.unchanged.js';
import sysNoPrepend from './messages.system.no-prepend.js';
import hdrVersion from './messages.headers.version.js';
import hdrBeta from './messages.headers.beta.js';
import hdrBetaBody from './messages.headers.beta-with-body.js';
import respUnchanged from './messages.response.unchanged.js';
import respJson from './messages.response.json.js';
import usageCache from './messages.usage.cache-fields.js';
import usageNoFab from './messages.usage.no-fabrication.js';
import cacheControl from './messages.cache.control.js';
import cacheOneHour from './messages.cache.one-hour.js';
import model from './messages.model.unchanged.js';
import auth from './messages.auth.credential.js';
import countTokens from './messages.count-tokens.passthrough.js';
import successHeaders from './messages.headers.success-passthrough.js';
import credentialCache from './messages.response.credential-cache.js';
import credentialNotReturned from './messages.credential.not-returned.js';
import corsPreflight from './messages.cors.preflight.js';
import encodingGzip from './messages.encoding.gzip.js';

export const MESSAGES_CHECKS: CheckDef[] = [path, bodySemantic, bodyBytes, unknownFields, arrays, sysUnchanged, sysNoPrepend, hdrVersion, hdrBeta, hdrBetaBody, respUnchanged, respJson, usageCache, usageNoFab, cacheControl, cacheOneHour, model, auth, countTokens, successHeaders, credentialCache, credentialNotReturned, corsPreflight, encodingGzip];
