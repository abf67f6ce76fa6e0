// What the account routes (api/account.ts) are configured with: the environment's, or a test's.
import { locationPolicy, type LocationPolicy } from './location.ts';

export type AccountSettings = {
  /** Where new accounts are not offered (location.ts). */
  location: LocationPolicy;
};

/** The settings from the environment (location.ts reads it), with the app's own overrides (tests). */
export function accountSettings(overrides: Partial<AccountSettings> = {}): AccountSettings {
  return { location: overrides.location ?? locationPolicy(process.env) };
}
