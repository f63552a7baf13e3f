// The apps profile's checks (one per APP-* requirement), run with --profile apps.
import type { CheckDef } from '../../src/check/check.js';
import disc from './apps.disc.models.js';
import login from './apps.login.paths.js';
import authz from './apps.authz.groups.js';
import device from './apps.device.flow.js';
import keyRotation from './apps.device.key-rotation.js';
import token from './apps.token.lifecycle.js';
import idpRevoked from './apps.token.idp-revoked.js';
import policy from './apps.policy.models.js';
import route from './apps.route.upstream.js';
import spendDeny from './apps.spend.deny.js';
import spendNoUpstream from './apps.spend.no-upstream.js';
import spendRestart from './apps.spend.restart.js';
import spendUsage from './apps.spend.usage.js';
import telTraces from './apps.tel.traces.js';
import telNoPrompts from './apps.tel.no-prompts.js';
import telSpend from './apps.tel.spend-denial.js';
import telDown from './apps.tel.collector-down.js';
import managed from './apps.managed.settings.js';
import telCredential from './apps.tel.credential.js';
import contract from './apps.protocol.contract.js';

export const APPS_CHECKS: CheckDef[] = [disc, login, authz, device, keyRotation, token, idpRevoked, policy, route, spendDeny, spendNoUpstream, spendRestart, spendUsage, telTraces, telNoPrompts, telSpend, telDown, managed, telCredential, contract];
