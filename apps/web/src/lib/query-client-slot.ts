import type { QueryClient } from '@tanstack/react-query';
import { createContext } from 'react';

/** A QueryClient handed to the App (tests give each render its own); none: QueryLayout makes one. */
export const QueryClientSlot = createContext<QueryClient | undefined>(undefined);
