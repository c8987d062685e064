import Fastify from 'fastify';
import pg from 'pg';

/** The ceiling a signed-in read can approach on this machine: one PK lookup, no framework work. */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.post('/pk/:id', async (request) => {
  const { id } = request.params as { id: string };
  const { rows } = await pool.query('select id, email from users where id = $1', [id]);
  return { Success: true, Result: rows[0] ?? null };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
