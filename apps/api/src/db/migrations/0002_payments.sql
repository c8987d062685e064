CREATE TABLE "checkout_sessions" (
	"invoice_tag" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"price_id" text NOT NULL,
	"bundle_title" text NOT NULL,
	"token_amount" integer NOT NULL,
	"amount_in_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text NOT NULL,
	"client_secret_hash" text,
	"payment_intent_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_reason" text,
	"analytics_metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"return_url" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "checkout_sessions_amounts_positive" CHECK ("checkout_sessions"."token_amount" > 0 and "checkout_sessions"."amount_in_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"type" text NOT NULL,
	"invoice_tag" text,
	"outcome" text NOT NULL,
	"failure_reason" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_provider_session_key" ON "checkout_sessions" USING btree ("provider","provider_session_id");--> statement-breakpoint
CREATE INDEX "checkout_sessions_user_idx" ON "checkout_sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_webhook_events_invoice_idx" ON "payment_webhook_events" USING btree ("invoice_tag");