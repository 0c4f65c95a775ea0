export type Role = 'manager' | 'staff';

export interface Profile {
  id: string;
  email: string;
  name: string;
  role: Role;
  active: boolean;
  onDuty: boolean;
  snoozeUntil: string | null;
  disabled: boolean;
  deletedAt: string | null;
  greeting: string | null;
  signedInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The specification's in-app session user. */
export interface SessionUser {
  uid: string;
  email: string;
  name: string;
  claimRole: Role | null;
  profileRole: Role;
  role: Role;
  isManager: boolean;
  profile: Profile;
}

export interface Weather {
  temperatureF: number;
  code: number;
  label: string;
}
