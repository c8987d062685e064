/** Calls to a running service (a child process, the browser suite's service, the benchmarks'). */

/** POSTs JSON to a running service. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The mails the dev outbox holds for an address, newest first. */
export async function devMails(
  base: string,
  email: string,
): Promise<{ Subject: string; Text: string; Links: string[] }[]> {
  const res = await fetch(`${base}/api/dev/mail?to=${encodeURIComponent(email)}`);
  return ((await res.json()) as { Result: { Subject: string; Text: string; Links: string[] }[] }).Result ?? [];
}

/** Signs up through the running service, opens the mailed link, and returns a session token. */
export async function signUpThrough(base: string, email: string, password: string): Promise<string> {
  await postJson(`${base}/api/accounts/register`, { email, password });
  const [mail] = await devMails(base, email);
  const verified = await postJson(`${base}/api/accounts/VerifyEmail`, { token: mail?.Links[0]?.split('/').pop() });
  return ((await verified.json()) as { Token: string }).Token;
}

/**
 * A session token as an API client (a desktop app, a test, the browser suite's cookie) gets it:
 * LoginByEmail. Throws with the fault's name when the service refuses.
 */
export async function signIn(
  base: string,
  account: { email: string; password: string },
  keepMeSignedIn = true,
): Promise<string> {
  const res = await postJson(`${base}/api/accounts/LoginByEmail`, { ...account, keepMeSignedIn });
  const answer = (await res.json()) as { Token?: string; Fault?: { ExceptionName: string } };
  if (!answer.Token) throw new Error(`LoginByEmail of ${account.email}: ${res.status} ${answer.Fault?.ExceptionName}`);
  return answer.Token;
}

/**
 * Runs a suite's clean-up steps in order, each given `limitMs`: a step that fails or outlasts its
 * limit is reported by name and the rest still run, so one stuck close neither hides which step
 * it was nor leaves the scratch database behind (a CI run once timed out the whole hook unnamed).
 */
export async function tearDown(steps: Record<string, () => Promise<unknown> | undefined>, limitMs = 10_000) {
  const problems: string[] = [];
  for (const [name, step] of Object.entries(steps)) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
    });
    try {
      if ((await Promise.race([Promise.resolve(step()), limit])) === 'late')
        problems.push(`${name}: over ${limitMs} ms`);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (problems.length > 0) console.warn(`clean-up steps that did not finish: ${problems.join('; ')}`);
}
