import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { api } from '../api/client';
import type { Profile, Role } from '../api/types';
import type { Changes } from '../../domain/users';

/** configured: a manager by MANAGER_EMAILS, whom the portal cannot disable, delete or demote. */
export type ManagedUser = Profile & { configured: boolean };

export interface AuditEntry {
  id: number;
  action: string;
  actorName: string;
  actorEmail: string | null;
  changes: Changes;
  at: string;
}

export interface UserInput {
  email: string;
  name: string;
  role: Role;
}

export const useUsers = (deleted: boolean) =>
  useQuery({
    queryKey: ['users', { deleted }],
    queryFn: async () => (await api<{ users: ManagedUser[] }>(`/users${deleted ? '?deleted=1' : ''}`)).users,
  });

export const useAudit = (id: string | undefined) =>
  useQuery({
    queryKey: ['users', id, 'audit'],
    queryFn: async () => (await api<{ entries: AuditEntry[] }>(`/users/${id}/audit`)).entries,
    enabled: !!id,
  });

/** The specification's failure alert: "Failed to save: {message}". */
export const notifyFailed = (what: string, err: unknown) =>
  notifications.show({ color: 'red', message: `${what}: ${(err as Error)?.message || 'Unknown error'}`, autoClose: 8000 });

export function useSaveUser(onDone: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UserInput & { id?: string }) =>
      id ? api(`/users/${id}`, { method: 'PATCH', body }) : api('/users', { method: 'POST', body }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'User profile updated.' });
      void qc.invalidateQueries({ queryKey: ['users'] });
      onDone();
    },
    onError: (err) => notifyFailed('Failed to save', err),
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

export function useStatus() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: StatusAction }) => api(`/users/${id}/${action}`, { method: 'POST' }),
    onSuccess: (_r, { action }) => {
      notifications.show({ color: 'green', message: DONE[action] });
      void qc.invalidateQueries({ queryKey: ['users'] });
    },
    onError: (err, { action }) => notifyFailed(FAILED[action], err),
  });
}
