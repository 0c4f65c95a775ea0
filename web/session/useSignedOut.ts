import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SIGNED_OUT_WHY, type SignedOutWhy } from './SessionProvider';

/**
 * What an open screen does when its session ends elsewhere (useLiveEvents' onRevoked): to the
 * sign-in page, which tells him why once (his own session knew who he was, so no stranger learns it).
 */
export function useSignedOut() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    (why: SignedOutWhy) => {
      sessionStorage.setItem(SIGNED_OUT_WHY, why);
      qc.setQueryData(['me'], null);
      void navigate('/', { replace: true });
    },
    [qc, navigate],
  );
}
