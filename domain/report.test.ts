import { describe, expect, it } from 'vitest';
import { floorReport, REPORT_CSV_HEADER, reportCsv, reportText, type FloorDay } from './report';

const MIN = 60_000;
const FROM = Date.UTC(2026, 10, 23, 5);
const TO = FROM + 24 * 60 * MIN;

const day: FloorDay = {
  day: '2026-11-23',
  team: [
    { id: 'b', name: 'Bob' },
    { id: 'a', name: 'Amy' },
    { id: 'z', name: 'Zed' },
  ],
  log: [
    { type: 'assign', targetId: 'a', targetName: 'Amy', reason: null },
    { type: 'assign', targetId: 'a', targetName: 'Amy', reason: null },
    { type: 'assign', targetId: 'b', targetName: 'Bob', reason: null },
    { type: 'beback', targetId: 'a', targetName: 'Amy', reason: null },
    { type: 'skip', targetId: 'b', targetName: 'Bob', reason: 'At lunch' },
    { type: 'skip', targetId: 'b', targetName: 'Bob', reason: 'at lunch' },
    { type: 'skip', targetId: 'b', targetName: 'Bob', reason: 'No response in 10 min' },
    // Someone who left the team since: still in the day's report.
    { type: 'assign', targetId: 'gone', targetName: 'Gus', reason: null },
    { type: 'closed', targetId: '', targetName: '', reason: null },
  ],
  handoffs: [{ missedId: 'b' }],
  speed: [
    { holderId: 'a', offeredAt: FROM + 60 * MIN, acceptedAt: FROM + 61 * MIN, firstContactAt: FROM + 65 * MIN },
    { holderId: 'a', offeredAt: FROM + 90 * MIN, acceptedAt: FROM + 93 * MIN, firstContactAt: null },
    { holderId: 'a', offeredAt: FROM + 100 * MIN, acceptedAt: FROM + 102 * MIN, firstContactAt: TO + MIN },
    // Accepted the day before: not this day's.
    { holderId: 'b', offeredAt: FROM - 10 * MIN, acceptedAt: FROM - 5 * MIN, firstContactAt: FROM + 20 * MIN },
  ],
  closed: [
    { holderId: 'a', sold: true },
    { holderId: 'b', sold: false },
  ],
  appointments: [{ holderId: 'a' }, { holderId: 'a' }, { holderId: 'b' }],
  from: FROM,
  to: TO,
};

describe('the floor report', () => {
  const r = floorReport(day);

  it('counts each salesman’s ups apart from be-backs, his skips with their reasons, hand-offs, closes', () => {
    expect(r.associates.map((a) => a.name)).toEqual(['Amy', 'Bob', 'Gus', 'Zed']);
    expect(r.associates[0]).toMatchObject({ id: 'a', ups: 2, beBacks: 1, skips: 0, handoffs: 0, closed: 1, appointments: 2, sold: 1 });
    expect(r.associates[1]).toMatchObject({
      ups: 1,
      skips: 3,
      handoffs: 1,
      closed: 1,
      appointments: 1,
      sold: 0,
      skipReasons: [
        { reason: 'At lunch', count: 2 },
        { reason: 'No response in 10 min', count: 1 },
      ],
    });
    expect(r.associates[3]).toMatchObject({ ups: 0, beBacks: 0, skips: 0, acceptMedian: null, contactMedian: null });
    expect(r.team).toMatchObject({ ups: 4, beBacks: 1, skips: 3, handoffs: 1, closed: 2, appointments: 3, sold: 1 });
  });

  it('takes the medians of what happened in the day, from when he got the lead', () => {
    expect(r.associates[0]).toMatchObject({ acceptMedian: 120, contactMedian: 300 });
    // Bob accepted yesterday and made contact today: only the contact counts.
    expect(r.associates[1]).toMatchObject({ acceptMedian: null, contactMedian: 1800 });
    expect(r.team).toMatchObject({ acceptMedian: 120, contactMedian: 300 });
  });

  it('is a spreadsheet with the team last, and a mail that names everyone', () => {
    const csv = reportCsv(r, 'NSH').split('\r\n');
    expect(csv[0]).toBe(REPORT_CSV_HEADER.join(','));
    expect(csv[0]).toMatch(/^Store,Salesman,/);
    expect(csv[1]).toBe('NSH,Amy,2,1,0,,0,120,300,1,2,1');
    expect(csv[2]).toBe('NSH,Bob,1,0,3,At lunch (2); No response in 10 min (1),1,,1800,1,1,0');
    expect(csv[5]).toBe('NSH,Team,4,1,3,At lunch (2); No response in 10 min (1),1,120,300,2,3,1');
    const text = reportText(r);
    expect(text).toContain('The floor on Nov 23, 2026');
    expect(text).toContain('Amy\n  Ups: 2   Be-backs: 1   Skips: 0   Hand-offs: 0   Leads closed: 1   Appointments set: 2   Sold: 1');
    expect(text).toContain('Median time to accept: 2 min   Median time to first contact: 5 min');
    expect(text).toContain('  Skip reasons: At lunch (2); No response in 10 min (1)');
  });

  it('neutralises a name a spreadsheet would run', () => {
    const bad = floorReport({ ...day, team: [{ id: 'x', name: '=HYPERLINK("evil")' }], log: [] });
    expect(reportCsv(bad, 'NSH').split('\r\n')[1]).toMatch(/^NSH,"'=HYPERLINK\(""evil""\)"/);
  });
});
