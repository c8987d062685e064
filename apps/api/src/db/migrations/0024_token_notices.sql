CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"expiry_notices" boolean NOT NULL,
	"low_balance_notices" boolean NOT NULL,
	"low_balance_threshold" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_preferences_threshold_positive" CHECK ("notification_preferences"."low_balance_threshold" > 0)
);
--> statement-breakpoint
CREATE TABLE "token_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"lot_id" uuid,
	"spend_id" uuid,
	"tokens" integer NOT NULL,
	"expires_at" timestamp with time zone,
	"threshold" integer,
	"mailed" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "token_notices_kind" CHECK ("token_notices"."kind" in ('expiry-30', 'expiry-7', 'expiry-1', 'low-balance') and ("token_notices"."lot_id" is not null) = ("token_notices"."kind" <> 'low-balance') and ("token_notices"."spend_id" is not null) = ("token_notices"."kind" = 'low-balance'))
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_notices" ADD CONSTRAINT "token_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_notices" ADD CONSTRAINT "token_notices_lot_id_token_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."token_lots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_notices" ADD CONSTRAINT "token_notices_spend_id_token_spends_id_fk" FOREIGN KEY ("spend_id") REFERENCES "public"."token_spends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "token_notices_lot_kind_key" ON "token_notices" USING btree ("lot_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "token_notices_spend_key" ON "token_notices" USING btree ("spend_id");--> statement-breakpoint
CREATE INDEX "token_notices_user_idx" ON "token_notices" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "token_lots_expiry_idx" ON "token_lots" USING btree ("expires_at","id") WHERE "token_lots"."remaining" > 0;