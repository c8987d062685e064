import { createContext, useContext } from 'react';
import { FALLBACK_CONFIG, type PublicConfig } from './public-config';

export const PublicConfigContext = createContext<PublicConfig>(FALLBACK_CONFIG);

export function usePublicConfig(): PublicConfig {
  return useContext(PublicConfigContext);
}
