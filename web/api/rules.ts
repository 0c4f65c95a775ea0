import { useQuery } from '@tanstack/react-query';
import { call } from './client';
import { DEFAULT_RULES } from '../../domain/rule-defaults';

/** The dealership rules (kept live by the "rules" topic). */
export function useRules() {
  return useQuery({ queryKey: ['rules'], queryFn: () => call('GET /rules') });
}

/** The rules in force, the defaults until they are loaded. */
export const useRulesNow = () => useRules().data?.rules ?? DEFAULT_RULES;
