import { fixtureText, fixtureTexts } from '../shared/fixtures.js';

/** Fixed request bodies modelled on real Claude Code traffic (fixtures/messages/*.json). */
export const messageFixtures = () => fixtureTexts('messages');
export const fixture = (name: string) => fixtureText('messages', name);
