/** True for the path itself and every path below it ('/admin/integrations/webhook' is under '/admin/integrations'). */
export function isUnderPath(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}
