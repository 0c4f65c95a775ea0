import { storePath } from '../../domain/stores';

/** Manager's sections in page order, each with its own address (/s/CODE/dashboard/management#routing-rules). */
export const MANAGER_SECTIONS = [
  { id: 'users', label: 'Users' },
  { id: 'stores', label: 'Stores' },
  { id: 'rules', label: 'Dealership rules' },
  { id: 'routing-rules', label: 'Routing rules' },
  { id: 'pay-plan', label: 'Pay plan' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'sign-in', label: 'Sign-in' },
] as const;

export type ManagerSection = (typeof MANAGER_SECTIONS)[number]['id'];

/** The address of a Manager section in a store. */
export const managerSection = (store: string, id: ManagerSection) => `${storePath(store, '/dashboard/management')}#${id}`;
