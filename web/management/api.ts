import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifyFail, notifyOk } from '../components/notify';
import { call } from '../api/client';
import type { Role } from '../../domain/roles';
import { useStore } from '../stores/store';

export type { ManagedUser } from '../../domain/contract/answers';

export interface UserInput {
  email: string;
  name: string;
  role: Role;
  /** Sent by a group manager only: a group manager has every store. */
  groupManager?: boolean;
  /** Sent by a group manager only: the stores' codes. Left out, the store he adds the person in. */
  stores?: string[];
}

/** The people of the current store. */
export function useUsers(deleted: boolean) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['users', store, { deleted }],
    queryFn: async () => (await call('GET /users', { query: { deleted: deleted ? 1 : undefined }, store })).users,
  });
}

export function useAudit(id: string | undefined) {
  const { code: store } = useStore();
  return useQuery({
    queryKey: ['users', store, id, 'audit'],
    queryFn: async () => (await call('GET /users/:id/audit', { params: { id: id ?? '' }, store })).entries,
    enabled: !!id,
  });
}

export function useSaveUser(onDone: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UserInput & { id?: string }) => (id ? call('PATCH /users/:id', { params: { id }, body }) : call('POST /users', { body })),
    onSuccess: ({ user }, asked) => {
      const waits = user.pendingEmail !== null && user.pendingEmail === asked.email;
      notifyOk(
        waits ? `User profile updated. A confirmation link went to ${user.pendingLinkTo}: the address changes when it is opened.` : 'User profile updated.',
      );
      void qc.invalidateQueries({ queryKey: ['users'] });
      onDone();
    },
    onError: (err) => notifyFail('Failed to save', err, { oneLine: true }),
  });
}

export type StatusAction = 'disable' | 'enable' | 'delete' | 'restore';

const DONE: Record<StatusAction, string> = {
  disable: 'User disabled.',
  enable: 'User enabled.',
  delete: 'User soft-deleted.',
  restore: 'User restored.',
};
const FAILED: Record<StatusAction, string> = {
  disable: 'Failed to disable',
  enable: 'Failed to enable',
  delete: 'Failed to soft-delete',
  restore: 'Failed to restore',
};

/** Signs a person out on every device; the history shows it. */
export function useSignOutEverywhere() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('POST /users/:id/sign-out', { params: { id } }),
    onSuccess: ({ ended }, id) => {
      notifyOk(ended === 0 ? 'Not signed in anywhere.' : `Signed out on ${ended === 1 ? '1 device' : `${ended} devices`}.`);
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'users' && q.queryKey[2] === id });
    },
    onError: (err) => notifyFail('Could not sign out', err, { oneLine: true }),
  });
}

export function useStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: StatusAction }) => call(`POST /users/:id/${action}`, { params: { id } }),
    onSuccess: (_r, { action }) => {
      notifyOk(DONE[action]);
      void qc.invalidateQueries({ queryKey: ['users'] });
    },
    onError: (err, { action }) => notifyFail(FAILED[action], err, { oneLine: true }),
  });
}
