/** Under Settings → Notifications (being built). */
export function MobileSetting() {
  return null;
}
