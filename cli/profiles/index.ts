// Every profile's module, by name: one exhaustive record (no default), so a new profile is one
// file of this folder and one line here, and the compiler names a profile left out.
import type { Profile } from '../../src/core/features.js';
import { APPS } from './apps/profile.js';
import { CLIENT } from './client/profile.js';
import { DEFAULT } from './default/profile.js';
import { LOAD } from './load/profile.js';
import type { ProfileModule } from './profile.js';
import { SERVICE } from './service/profile.js';
import { SLOW } from './slow/profile.js';

export type { ProfileModule };

export const PROFILE_MODULES: Record<Profile, ProfileModule> = {
  default: DEFAULT,
  slow: SLOW,
  service: SERVICE,
  apps: APPS,
  client: CLIENT,
  load: LOAD,
};
