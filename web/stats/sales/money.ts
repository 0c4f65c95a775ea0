import { formatCents } from '../../../domain/commission';

/** Whole dollars as the charts and their summaries show them. */
export const money = (dollars: number) => formatCents(Math.round(dollars * 100));
