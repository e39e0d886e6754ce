/** The one sentence shown for a rejected value or action: the first issue's message, bounded by the shared errors. */
export function errorText(error: Error): string {
  const issues = (error as { issues?: readonly { message: string }[] }).issues;
  if (issues !== undefined && issues.length > 0) return issues[0]!.message;
  return error.message;
}
