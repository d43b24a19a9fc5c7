package io.axscheduler.deploy.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaParameter;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of docs/architecture.md, checked on the production classes of every module: the sides
 * talk only through api's messages, api is a contract without Spring or Axon's runtime, Axon's internals are reached
 * only from the axon-mysql engine module, and no two packages depend on each other; and two habits of CONTRIBUTING.md:
 * settings through typed properties records, time through the injected {@link Clock}.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.axscheduler");
    }

    @Test
    void the_command_side_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.command..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.query..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    /** The console reads through the query side and acts through the API's commands, never through another side. */
    @Test
    void the_console_imports_neither_the_command_side_nor_the_scheduler() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.console..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void the_query_side_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.query..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void the_scheduler_saga_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.scheduler..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.query..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void api_is_a_contract_without_spring_and_without_the_modules_built_on_it() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.api..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework..",
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..",
                        "io.axscheduler.axonmysql..",
                        "io.axscheduler.worker..")
                .check(classes);
    }

    @Test
    void the_worker_library_needs_only_the_contract() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.worker..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..",
                        "io.axscheduler.axonmysql..",
                        "org.axonframework..")
                .check(classes);
    }

    @Test
    void api_uses_no_axon_class_but_its_routing_annotation() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.api..")
                .should()
                .dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "Axon classes other than @TargetAggregateIdentifier",
                        (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName()
                                        .startsWith("org.axonframework")
                                && !c.getName()
                                        .equals("org.axonframework.modelling.command.TargetAggregateIdentifier")))
                .check(classes);
    }

    @Test
    void only_the_engine_module_reaches_into_axon_processor_batches_or_private_members() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.axscheduler.axonmysql..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("org.axonframework.messaging.unitofwork.BatchingUnitOfWork")
                .orShould()
                .callMethod(java.lang.reflect.Field.class, "setAccessible", boolean.class)
                .orShould()
                .callMethod(java.lang.reflect.Method.class, "setAccessible", boolean.class)
                .check(classes);
    }

    @Test
    void the_engine_module_knows_nothing_of_the_scheduler() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.axonmysql..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void no_package_cycles_between_the_modules() {
        slices().matching("io.axscheduler.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void no_package_cycles_between_the_stages_of_the_scheduler() {
        slices().matching("io.axscheduler.scheduler.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void no_package_cycles_inside_the_sides() {
        slices().matching("io.axscheduler.command.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
        slices().matching("io.axscheduler.query.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
        slices().matching("io.axscheduler.axonmysql.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    /**
     * Allowed to read the system clock: the worker library runs in the user's service, which has no Clock bean of
     * ours; time-ordered ids take their time prefix from the system clock by design; the benchmark measures wall
     * time. Files other branches change today that still read it are to be added here only until converted (none).
     */
    private static final List<String> SYSTEM_CLOCK_ALLOWED_PACKAGES =
            List.of("io.axscheduler.worker", "io.axscheduler.bench");

    private static final Set<String> SYSTEM_CLOCK_ALLOWED_CLASSES = Set.of(
            "io.axscheduler.axonmysql.messaging.TimeOrderedIdentifiers",
            // the one Clock bean every other class is given
            "io.axscheduler.deploy.NodeSetup");

    @Test
    void ax_settings_are_read_through_properties_records_not_annotations() {
        classes().should(notReadAxSettingsThroughAnnotations()).check(classes);
    }

    @Test
    void time_comes_from_the_injected_clock_not_from_the_system() {
        noClasses()
                .that(areNotIn(
                        "the system clock's allow-list", SYSTEM_CLOCK_ALLOWED_CLASSES, SYSTEM_CLOCK_ALLOWED_PACKAGES))
                .should()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(LocalDate.class, "now")
                .orShould()
                .callMethod(OffsetDateTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .orShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .check(classes);
    }

    /** Neither one of the classes named (or nested in one) nor in or under one of the packages. */
    private static DescribedPredicate<JavaClass> areNotIn(String list, Set<String> classNames, List<String> packages) {
        return DescribedPredicate.describe("are not on " + list, c -> {
            String outer = c.getName().contains("$")
                    ? c.getName().substring(0, c.getName().indexOf('$'))
                    : c.getName();
            boolean listed = classNames.contains(outer)
                    || packages.stream()
                            .anyMatch(p -> c.getPackageName().equals(p)
                                    || c.getPackageName().startsWith(p + "."));
            return !listed;
        });
    }

    /**
     * A placeholder in {@code @Value} or {@code @Scheduled} repeats its default beside the properties record's, where
     * the two drift apart unseen; the record also validates the value.
     */
    private static ArchCondition<JavaClass> notReadAxSettingsThroughAnnotations() {
        return new ArchCondition<>(
                "not read ax.* settings through @Value or @Scheduled (use a @ConfigurationProperties record)") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaField field : c.getFields()) report(field.getAnnotations(), field.getFullName(), c, events);
                for (JavaCodeUnit unit : c.getCodeUnits()) {
                    report(unit.getAnnotations(), unit.getFullName(), c, events);
                    for (JavaParameter parameter : unit.getParameters())
                        report(parameter.getAnnotations(), parameter.getDescription(), c, events);
                }
            }

            private void report(
                    Iterable<? extends JavaAnnotation<?>> annotations,
                    String where,
                    JavaClass c,
                    ConditionEvents events) {
                for (JavaAnnotation<?> a : annotations) {
                    boolean value =
                            a.getRawType().isEquivalentTo(org.springframework.beans.factory.annotation.Value.class);
                    boolean scheduled =
                            a.getRawType().isEquivalentTo(org.springframework.scheduling.annotation.Scheduled.class);
                    if (!value && !scheduled) continue;
                    for (Object attribute : a.getProperties().values()) {
                        String expression = String.valueOf(attribute);
                        if (expression.contains("${ax."))
                            events.add(SimpleConditionEvent.violated(
                                    c,
                                    where + " reads " + expression + " through @"
                                            + a.getRawType().getSimpleName()));
                    }
                }
            }
        };
    }
}
