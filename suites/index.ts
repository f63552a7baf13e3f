// The explicit list of checks: adding a check means adding it here.
import type { CheckDef } from '../src/core/check.js';
import path from './messages/messages.path.preserved.js';
import bodySemantic from './messages/messages.body.semantic.js';
import bodyBytes from './messages/messages.body.bytes.js';
import unknownFields from './messages/messages.body.unknown-fields.js';
import arrays from './messages/messages.body.arrays.js';
import sysUnchanged from './messages/messages.system.unchanged.js';
import sysNoPrepend from './messages/messages.system.no-prepend.js';
import hdrVersion from './messages/messages.headers.version.js';
import hdrBeta from './messages/messages.headers.beta.js';
import hdrBetaBody from './messages/messages.headers.beta-with-body.js';
import respUnchanged from './messages/messages.response.unchanged.js';
import respJson from './messages/messages.response.json.js';
import usageCache from './messages/messages.usage.cache-fields.js';
import usageNoFab from './messages/messages.usage.no-fabrication.js';
import cacheControl from './messages/messages.cache.control.js';
import cacheOneHour from './messages/messages.cache.one-hour.js';
import model from './messages/messages.model.unchanged.js';
import auth from './messages/messages.auth.credential.js';

export const CHECKS: CheckDef[] = [
  path,
  bodySemantic,
  bodyBytes,
  unknownFields,
  arrays,
  sysUnchanged,
  sysNoPrepend,
  hdrVersion,
  hdrBeta,
  hdrBetaBody,
  respUnchanged,
  respJson,
  usageCache,
  usageNoFab,
  cacheControl,
  cacheOneHour,
  model,
  auth,
];
