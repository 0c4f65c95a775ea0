/** What other features and the benchmark call of the rotation; each job lives in its own file here. */
export { assignNext, handOutLead, type Assigned, type NewLead } from './assign';
export { firstOverdue, sqlEnv, UNASSIGNED } from './queries';
export type { Actor } from '../../domain/users';
