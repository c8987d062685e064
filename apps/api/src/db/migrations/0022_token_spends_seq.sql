DROP INDEX "token_spends_user_idx";--> statement-breakpoint
ALTER TABLE "token_spends" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "token_spends_user_idx" ON "token_spends" USING btree ("user_id","spent_at","seq");