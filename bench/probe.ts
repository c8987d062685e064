import autocannon from 'autocannon';

/**
 * The LoginByToken probe of `npm run bench`, in a process of its own: the sign-in flood's client
 * runs in the bench's process, and sharing its event loop would add the client's own delays to
 * the probe's latencies. Reads its settings as JSON from PROBE, prints autocannon's result as JSON.
 */
interface ProbeSettings {
  url: string;
  seconds: number;
  connections: number;
  rate: number;
  tokens: string[];
}

const settings = JSON.parse(process.env.PROBE ?? '') as ProbeSettings;
let next = 0;
const result = await autocannon({
  url: settings.url,
  duration: settings.seconds,
  connections: settings.connections,
  overallRate: settings.rate,
  requests: [
    {
      method: 'POST',
      path: '/api/accounts/LoginByToken',
      setupRequest: (request) => ({
        ...request,
        headers: {
          'content-type': 'application/json',
          authtoken: settings.tokens[next++ % settings.tokens.length] as string,
        },
        body: '{}',
      }),
    },
  ],
});
console.log(JSON.stringify(result));
