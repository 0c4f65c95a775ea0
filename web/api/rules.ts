import { useQuery } from '@tanstack/react-query';
import { call } from './client';
import { DEFAULT_RULES } from '../../domain/rule-defaults';
import { useStore } from '../stores/store';

/** The key of a store's rules. */
export const rulesKey = (store: string) => ['rules', store];

/** A store's rules, as every screen asks for them. */
export const rulesQuery = (store: string) => ({ queryKey: rulesKey(store), queryFn: () => call('GET /rules', { store }) });

/** The current store's rules (kept live by the "rules" topic). */
export function useRules() {
  const { code: store } = useStore();
  return useQuery(rulesQuery(store));
}

/** The rules in force, the defaults until they are loaded. */
export const useRulesNow = () => useRules().data?.rules ?? DEFAULT_RULES;
