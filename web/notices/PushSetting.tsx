/** Under Settings → Notifications (being built). */
export function PushSetting() {
  return null;
}
