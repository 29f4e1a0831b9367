package consumer.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/** A service that every instance runs alike, whose nightly report must run on one instance at a time. */
@SpringBootApplication
@EnableScheduling
public class NightlyReportApplication {

  public static void main(String[] args) {
    SpringApplication.run(NightlyReportApplication.class, args);
  }
}
