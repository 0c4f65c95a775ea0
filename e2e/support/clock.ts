import { dayKey } from '../../domain/time';

/** The e2e server's zone (APP_TIMEZONE's default): "today" is its date, not UTC's. */
export const E2E_TZ = 'America/New_York';
export const today = () => dayKey(new Date(), E2E_TZ);
