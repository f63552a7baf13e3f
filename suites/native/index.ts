// The native (Gemini) protocol through a gateway. Adding a check means adding it here.
import type { CheckDef } from '../../src/check/check.js';
import path from './native.path.colon.js';
import body from './native.body.semantic.js';
import auth from './native.auth.credential.js';
import response from './native.response.unchanged.js';
import cross from './native.cross.protocol.js';
import errors from './native.errors.passthrough.js';
import countTokens from './native.count-tokens.passthrough.js';
import streamPath from './native.stream.path.js';
import streamIncremental from './native.stream.incremental.js';
import streamFraming from './native.stream.framing.js';
import streamEvents from './native.stream.events.js';
import modelsCache from './native.models.credential-cache.js';
import credentialNotReturned from './native.credential.not-returned.js';
import oneCredential from './native.auth.one-credential.js';

export const NATIVE_CHECKS: CheckDef[] = [path, body, auth, response, cross, errors, countTokens, streamPath, streamIncremental, streamFraming, streamEvents, modelsCache, credentialNotReturned, oneCredential];
