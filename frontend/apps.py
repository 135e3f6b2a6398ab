from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"
    verbose_name = "Public pages"

    def ready(self) -> None:
        from frontend import public_routes
        from frontend.charts import receivers

        receivers.connect()
        public_routes.register()
