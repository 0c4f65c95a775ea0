import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { move, STAGES, stageOf, STAGE_LABELS, isOpen, type Move, type Stage } from './stages';

const MOVES: Move[] = ['contact', 'appoint', 'show', 'noShow', 'sell', 'lose', 'reopen'];

/** Every stage × move, written out: the stage it leads to, or '×' when refused. */
const TABLE: Record<Stage, Record<Move, Stage | '×'>> = {
  new: { contact: '×', appoint: '×', show: '×', noShow: '×', sell: '×', lose: 'lost', reopen: '×' },
  waiting: { contact: 'contacted', appoint: 'appointment', show: '×', noShow: '×', sell: 'sold', lose: 'lost', reopen: '×' },
  accepted: { contact: 'contacted', appoint: 'appointment', show: '×', noShow: '×', sell: 'sold', lose: 'lost', reopen: '×' },
  contacted: { contact: 'contacted', appoint: 'appointment', show: '×', noShow: '×', sell: 'sold', lose: 'lost', reopen: '×' },
  appointment: { contact: 'appointment', appoint: 'appointment', show: 'shown', noShow: 'contacted', sell: 'sold', lose: 'lost', reopen: '×' },
  shown: { contact: 'shown', appoint: 'appointment', show: '×', noShow: '×', sell: 'sold', lose: 'lost', reopen: '×' },
  sold: { contact: '×', appoint: '×', show: '×', noShow: '×', sell: '×', lose: '×', reopen: '×' },
  lost: { contact: '×', appoint: '×', show: '×', noShow: '×', sell: '×', lose: '×', reopen: 'contacted' },
  closed: { contact: '×', appoint: '×', show: '×', noShow: '×', sell: '×', lose: '×', reopen: 'contacted' },
};

describe('lead stages', () => {
  it('allows and refuses every move as the table says, with a reason for each refusal', () => {
    for (const s of STAGES) {
      for (const m of MOVES) {
        const r = move(s, m);
        if (TABLE[s][m] === '×') expect('refused' in r && r.refused.length > 5, `${s} ${m}`).toBe(true);
        else expect(r, `${s} ${m}`).toEqual({ to: TABLE[s][m] });
      }
    }
  });

  it('reads the first stages off the hand-out and the rest off the lead', () => {
    expect(stageOf({ stage: null, assignedTo: '', accepted: false, closed: false })).toBe('new');
    expect(stageOf({ stage: null, assignedTo: 'u1', accepted: false, closed: false })).toBe('waiting');
    expect(stageOf({ stage: null, assignedTo: 'u1', accepted: true, closed: false })).toBe('accepted');
    expect(stageOf({ stage: 'appointment', assignedTo: 'u1', accepted: true, closed: false })).toBe('appointment');
    // Closed with no stage kept (before stages): never read as Accepted off its hand-out.
    expect(stageOf({ stage: null, assignedTo: 'u1', accepted: true, closed: true })).toBe('closed');
    expect(STAGE_LABELS.closed).toBe('Closed (before stages)');
    expect(STAGE_LABELS.waiting).toBe('Waiting for accept');
    expect(STAGE_LABELS.appointment).toBe('Appointment set');
  });

  it('on any walk: a move never leads back before Contacted, Sold stays Sold, and only Reopen leaves Lost', () => {
    fc.assert(
      fc.property(fc.constantFrom<Stage>('waiting', 'accepted', 'new'), fc.array(fc.constantFrom(...MOVES), { maxLength: 30 }), (start, moves) => {
        let s: Stage = start;
        for (const m of moves) {
          const r = move(s, m);
          if ('refused' in r) continue;
          expect(['new', 'waiting', 'accepted']).not.toContain(r.to);
          if (s === 'sold') throw new Error('a sold lead moved');
          if (s === 'lost' || s === 'closed') expect(m).toBe('reopen');
          if (r.to === 'sold') expect(isOpen(s)).toBe(true);
          s = r.to;
        }
      }),
    );
  });
});
