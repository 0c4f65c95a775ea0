import { formatWhen } from '../../domain/format';
import { APP_TIMEZONE } from '../api/meta';

/** "Today 2:44 PM", "Yesterday 11:57 PM", "Nov 19, 3:10 PM", on the dealership's clock. */
export const when = (iso: string | null | undefined, fallback = '—') => (iso ? formatWhen(iso, new Date(), APP_TIMEZONE) : fallback);
