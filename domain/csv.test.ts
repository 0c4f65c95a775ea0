import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { toCsv, salesCsv, SALES_CSV_HEADER } from './csv';

describe('toCsv', () => {
  it('ends every record with CRLF and leaves plain cells bare', () => {
    expect(
      toCsv([
        ['a', 1, null],
        ['b', 2.5, ''],
      ]),
    ).toBe('a,1,\r\nb,2.5,\r\n');
    expect(toCsv([])).toBe('');
  });

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['two\r\nlines', '"two\r\nlines"'],
    ['"', '""""'],
  ])('quotes %j as %j', (value, text) => {
    expect(toCsv([[value]])).toBe(`${text}\r\n`);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['\rcmd', `"'\rcmd"`],
  ])('neutralises %j as %j', (value, text) => {
    expect(toCsv([[value]])).toBe(`${text}\r\n`);
  });

  it('leaves numbers alone, negative ones too', () => {
    expect(toCsv([[-200, 0, 1234.56]])).toBe('-200,0,1234.56\r\n');
  });

  it('does not neutralise a formula character later in the cell', () => {
    expect(toCsv([['a=b', 'x-1', 'me@dealer.com']])).toBe('a=b,x-1,me@dealer.com\r\n');
  });

  it('gives back every cell when read by an RFC 4180 reader', () => {
    const parse = (csv: string): string[][] => {
      const rows: string[][] = [];
      let row: string[] = [];
      let field = '';
      let quoted = false;
      for (let i = 0; i < csv.length; i++) {
        const c = csv[i];
        if (quoted && c === '"' && csv[i + 1] === '"') {
          field += '"';
          i++;
        } else if (c === '"') {
          quoted = !quoted;
        } else if (!quoted && c === ',') {
          row.push(field);
          field = '';
        } else if (!quoted && c === '\r' && csv[i + 1] === '\n') {
          row.push(field);
          rows.push(row);
          row = [];
          field = '';
          i++;
        } else {
          field += c;
        }
      }
      return rows;
    };
    const unit = fc.constantFrom('a', ',', '"', '\r', '\n', '=', ' ');
    const rows = fc.array(fc.array(fc.string({ unit }), { minLength: 1, maxLength: 4 }), { maxLength: 5 });
    fc.assert(
      fc.property(rows, (input) => {
        const neutralised = input.map((r) => r.map((v) => (/^[=\r]/.test(v) ? `'${v}` : v)));
        expect(parse(toCsv(input))).toEqual(neutralised);
      }),
    );
  });
});

describe('salesCsv', () => {
  it('writes the header, then one row per sale; the store last for someone who sells in more than one', () => {
    const csv = salesCsv(
      [
        {
          date: '2026-03-10',
          frontGrossCents: 123456,
          commissionCents: 30864,
          vehicleType: 'new',
          plan: { type: 'percent', percent: 25, flat: null, split: 1 },
          store: 'NSH',
        },
        {
          date: '2026-03-11',
          frontGrossCents: -50000,
          commissionCents: 0,
          vehicleType: 'used',
          plan: { type: 'flat', percent: null, flat: 0, split: 0.5 },
          store: 'NSH',
        },
        {
          date: '2026-03-12',
          frontGrossCents: 150050,
          commissionCents: 5000,
          vehicleType: 'used',
          plan: { type: 'flat', percent: null, flat: 100, split: 0.5 },
          store: 'SST',
        },
      ],
      true,
    );
    // The specification's eight columns in its order, then the store.
    expect(SALES_CSV_HEADER).toEqual(['Date', 'FrontGross', 'Commission', 'VehicleType', 'PlanType', 'Percent', 'Flat', 'Split']);
    expect(csv.split('\r\n')).toEqual([
      'Date,FrontGross,Commission,VehicleType,PlanType,Percent,Flat,Split,Store',
      '2026-03-10,1234.56,308.64,new,percent,25,,1,NSH',
      '2026-03-11,-500,0,used,flat,,0,0.5,NSH',
      '2026-03-12,1500.5,50,used,flat,,100,0.5,SST',
      '',
    ]);
  });

  it('has the eight columns only for someone of one store', () => {
    const sale = {
      date: '2026-03-10',
      frontGrossCents: 100,
      commissionCents: 25,
      vehicleType: 'new',
      plan: { type: 'percent', percent: 25, flat: null, split: 1 },
      store: 'NSH',
    } as const;
    expect(salesCsv([sale], false).split('\r\n')).toEqual([
      'Date,FrontGross,Commission,VehicleType,PlanType,Percent,Flat,Split',
      '2026-03-10,1,0.25,new,percent,25,,1',
      '',
    ]);
  });

  it('is only the header without sales', () => {
    expect(salesCsv([], false)).toBe(`${SALES_CSV_HEADER.join(',')}\r\n`);
  });
});
