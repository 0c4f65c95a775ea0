import type { Plan } from './commission';

/** The specification's columns in its order; the store the sale was made in follows for someone who sells in more than one. */
export const SALES_CSV_HEADER = ['Date', 'FrontGross', 'Commission', 'VehicleType', 'PlanType', 'Percent', 'Flat', 'Split'];

export type Cell = string | number | null;

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180: CRLF after every record, fields quoted only when needed. */
export function toCsv(rows: Cell[][]): string {
  return rows.map((row) => `${row.map(cell).join(',')}\r\n`).join('');
}

export type SaleExport = {
  date: string;
  frontGrossCents: number;
  commissionCents: number;
  vehicleType: string;
  plan: Plan;
  /** The store's code. */
  store: string;
};

/** `withStore`: the salesman sells in more than one store, so each row says which. */
export function salesCsv(sales: SaleExport[], withStore: boolean): string {
  const store = (row: Cell[], code: Cell) => (withStore ? [...row, code] : row);
  return toCsv([
    store(SALES_CSV_HEADER, 'Store'),
    ...sales.map((s) =>
      store([s.date, s.frontGrossCents / 100, s.commissionCents / 100, s.vehicleType, s.plan.type, s.plan.percent, s.plan.flat, s.plan.split], s.store),
    ),
  ]);
}
