/** Under Settings → Notifications (being built). */
export function NoticeChoices() {
  return null;
}
