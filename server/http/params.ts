import { notFound } from './errors';
import { isRecord } from '../../domain/guards';

/**
 * A row id from a path: plain decimal digits only, so "0x10", "1e1", "+16" or " 16" do not
 * reach row 16. Anything else names no row: 404.
 */
export function pathId(params: unknown, notFoundMessage: string): number {
  const id = isRecord(params) ? params.id : undefined;
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,14}$/.test(id)) throw notFound(notFoundMessage);
  return Number(id);
}
