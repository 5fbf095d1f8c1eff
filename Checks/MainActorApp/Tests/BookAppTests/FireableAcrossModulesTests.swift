import Testing
import BookAPI
import BookApp
import RefreshButton
import Salvo

/// Three modules, as an app splits them: `BookAPI` configures typed calls, `BookApp`'s model sets
/// their handlers, `RefreshButton` fires them as `any Fireable` without naming a model type.
@Suite struct FireableAcrossModulesTests {
    @Test func aRefreshButtonFiresTypedCallsItCannotNameAndTheModelGetsTypedValues() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let button = RefreshButton(calls: model.refreshCalls(book: api.typedBook(2), shelf: api.shelf()))

        button.tap()
        await model.waitForOutcomes(2)

        #expect(model.book == library[1])
        #expect(model.shelf == Array(library.prefix(2)))
        #expect(model.problems.isEmpty)
    }

    @Test func aFailureReachesTheModelWithItsDecodedErrorBody() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let button = RefreshButton(calls: model.refreshCalls(book: api.typedBook(9), shelf: api.shelf()))

        button.tap()
        await model.waitForOutcomes(2)

        #expect(model.book == nil)
        #expect(model.problems == ["no such book"])
        #expect(model.shelf.count == 2)
    }

    @Test func aTypedRefresherKeepsTheValueTypeAndHandsOnTheErrorBody() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let found = model.refresher(of: api.typedBook(3))
        let missing = model.refresher(of: api.typedBook(9))

        await RefreshGroup([found, missing]).refresh()
        await model.waitForOutcomes(1)

        #expect(found.value == library[2])
        #expect(missing.error?.statusCode == 404)
        #expect(model.problems == ["no such book"])
    }
}
