import { useParams, useSearchParams } from 'react-router';

/** The single-use token of a mail link, in the path or (older mails) the query. */
export function useActionToken(): string | null {
  const { token } = useParams();
  const [searchParams] = useSearchParams();
  return token || searchParams.get('token') || null;
}
